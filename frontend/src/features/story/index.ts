/** The story section, loaded when it comes near the screen. */
export { LazyStorySection } from './LazyStorySection';
