/** Reporting a post or a comment to the moderators. */
export { ReportDialog } from './ReportDialog';
