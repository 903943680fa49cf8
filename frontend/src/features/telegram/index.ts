export { inTelegram, telegramInitData } from './launch';
export { loadTelegramShell, telegramShell } from './bridge';
export { createTelegramLinkCode, telegramSession } from './telegram-api';
export { createTelegramPlayer, telegramSignIn, type TelegramOutcome } from './telegram-sign-in';
