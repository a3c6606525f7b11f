import type { PhotoImages } from "../domain/inventory/item-photo.js";

/**
 * Turns an uploaded image into the renditions the server keeps: decoded (refusing anything
 * that is not an accepted image with UnsupportedImageError, or too many pixels with
 * PhotoTooLargeError), turned upright by its orientation tag, resized, re-encoded without
 * any metadata (no location, no camera data).
 */
export interface PhotoProcessor {
  process(image: Uint8Array): Promise<PhotoImages>;
}

export const PHOTO_PROCESSOR = Symbol("PhotoProcessor");
