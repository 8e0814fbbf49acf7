// What the profile embeds of the passkeys; everything else in this folder is private.
export { PasskeysSection } from './passkeys-section';
