import { productName, version } from '../../package.json';

/** The app's name and version, from package.json (inlined at build time). */
export const APP_NAME: string = productName;
export const APP_VERSION: string = version;
