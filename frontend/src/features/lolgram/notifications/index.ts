/** The bell with its live unread count, and the list of notifications behind it. */
export { NotificationBell } from './NotificationBell';
