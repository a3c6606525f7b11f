import { crc32 } from "node:zlib";
import sharp from "sharp";

/** A marker written into a test photo's EXIF: it must never come back out of the server. */
export const EXIF_MARKER = "hearth-secret-marker";

/**
 * A JPEG as a phone takes it: landscape pixels (width × height) with an EXIF orientation
 * of 6 (shown rotated a quarter turn, so portrait), a GPS position (Berlin) and a marker in
 * its EXIF copyright.
 */
export async function phonePhoto(width = 64, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#2a7" } })
    .jpeg()
    .withExif({
      IFD0: { Copyright: EXIF_MARKER },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "52/1 31/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "13/1 24/1 0/1" },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A small PNG or WebP. */
export async function plainImage(format: "png" | "webp" | "gif" | "tiff", width = 20, height = 20): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } })
    .toFormat(format)
    .toBuffer();
}

/** Whether an EXIF block holds a GPS directory (tag 0x8825, either byte order). */
export function hasGpsDirectory(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  return exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
}

/**
 * A PNG whose header claims `width` × `height` pixels: tiny on the wire, a decompression bomb
 * for a decoder that believed it.
 */
export async function claimedHugePng(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } })
    .png()
    .toBuffer();
  const patched = Buffer.from(png);
  // IHDR's width and height follow the signature (8), the chunk length (4) and type (4).
  patched.writeUInt32BE(width, 16);
  patched.writeUInt32BE(height, 20);
  // The chunk's CRC covers its type and data (bytes 12–28), so the header stays well-formed.
  patched.writeUInt32BE(crc32(patched.subarray(12, 29)), 29);
  return patched;
}
