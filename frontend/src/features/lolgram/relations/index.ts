/** Between two people: following and blocking. */
export { BlockedList } from './BlockedList';
export { BlockUserDialog } from './BlockUserDialog';
export { FollowButton } from './FollowButton';
export { useBlockStatus, useSetBlocked } from './useBlocks';
