/** A person's profile: the header and counts, their own edit and avatar, someone else's page. */
export { AvatarUpload } from './AvatarUpload';
export { EditProfileDialog } from './EditProfileDialog';
export { ProfileHeader } from './ProfileHeader';
export { PublicProfile } from './PublicProfile';
export { useUserByUsername } from './useUserByUsername';
