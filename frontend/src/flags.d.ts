/** The URL of the folder of the country flags' images (see country-flags.ts), ending in `/`. */
declare const __FLAGS_URL__: string;
