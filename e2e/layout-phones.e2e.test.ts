import { layoutScreens, PHONE_WIDTHS } from './layout-screens';

// Every screen at 320 and 360 px, and the wallet's screens at 390 px as well.
layoutScreens({ widths: PHONE_WIDTHS, largerPhone: true });
