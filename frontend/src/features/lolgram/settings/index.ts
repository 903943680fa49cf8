/** The signed-in user's account settings: password, devices, wallet, deleting the account. */
export { SettingsDialog } from './SettingsDialog';
