/** What other features take from LOLGram: its providers (wallet host, sign-in) and its sign-in dialog. */
export { LolgramProviders } from './LolgramProviders';
export { AuthDialog } from './account';
