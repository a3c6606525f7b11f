/** PHOTO_MAX_BYTES's default: a phone camera's JPEG is 2–8 MB. */
export const DEFAULT_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
