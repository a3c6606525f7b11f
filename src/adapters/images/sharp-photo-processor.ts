import type { Metadata, Sharp, SharpOptions } from "sharp";
import {
  PhotoProcessingUnavailableError,
  type PhotoImages,
  PhotoTooLargeError,
  UnsupportedImageError,
} from "../../domain/inventory/item-photo.js";
import type { PhotoProcessor } from "../../ports/photo-processor.js";
import { loadOnce } from "../../domain/shared/load-once.js";
import { Turns } from "../../domain/shared/turns.js";

type SharpFactory = (input: Uint8Array, options: SharpOptions) => Sharp;

/**
 * sharp, loaded on the first photo: libvips adds about 20 MB to the process, which a household
 * that never adds a photo should not carry (docs/performance.md).
 *
 * libvips' operation cache is turned off: every photo is a new image, so it never hits, and it
 * held on to the decoded pixels of the last uploads (two 48-megapixel progressive JPEGs left
 * the process 580 MB larger after they were done).
 */
const loadSharp = loadOnce<SharpFactory>(() =>
  import("sharp").then(
    (module) => {
      module.default.cache(false);
      return module.default;
    },
    (error: unknown) => {
      throw new PhotoProcessingUnavailableError(
        `the image library (sharp) cannot be loaded: ${error instanceof Error ? error.message : String(error)}`,
      );
    },
  ),
);

/** The formats accepted, by the name sharp's decoder reports (read from the bytes, never the header). */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "heif"]);

export interface SharpPhotoOptions {
  /**
   * Most pixels an upload may decode to: a small file can expand to gigabytes of pixels
   * (a decompression bomb). Default 50 million, enough for a 48-megapixel phone camera.
   */
  maxPixels?: number;
  /** Longest side of the display rendition; default 1280. */
  displaySize?: number;
  /** Side of the square list thumbnail; default 256. */
  thumbSize?: number;
  /**
   * Most pixels of an image that must be decoded whole before it can be shrunk: a progressive
   * JPEG (libjpeg keeps every coefficient, about 3 bytes a pixel) or an interlaced PNG. Default
   * 24 million (about 75 MB); cameras and phones write baseline JPEGs, which are decoded shrunk.
   */
  maxWholeDecodePixels?: number;
  /** Photos decoded at once; more wait their turn, which bounds the memory decoding takes. Default 1. */
  concurrency?: number;
}

/**
 * The photo pipeline on sharp (libvips): JPEG, PNG, WebP and, of HEIF, what the bundled libvips
 * decodes (AVIF; its prebuilt binaries carry no HEVC decoder, so iPhone HEIC photos are
 * refused as unsupported). Both renditions are baseline JPEG without any metadata.
 */
export class SharpPhotoProcessor implements PhotoProcessor {
  private readonly maxPixels: number;
  private readonly displaySize: number;
  private readonly thumbSize: number;
  private readonly maxWholeDecodePixels: number;
  private readonly turns: Turns;

  constructor(options: SharpPhotoOptions = {}) {
    this.maxPixels = options.maxPixels ?? 50_000_000;
    this.displaySize = options.displaySize ?? 1280;
    this.thumbSize = options.thumbSize ?? 256;
    this.maxWholeDecodePixels = options.maxWholeDecodePixels ?? 24_000_000;
    // One at a time by default: a household adds a photo now and then, and two large ones
    // decoded at once doubled the peak a 1 GB board has to find room for.
    this.turns = new Turns(options.concurrency ?? 1);
  }

  process(image: Uint8Array): Promise<PhotoImages> {
    return this.turns.run(() => this.render(image));
  }

  private async render(image: Uint8Array): Promise<PhotoImages> {
    const sharp = await loadSharp();
    // failOn "error": a truncated or corrupt file is refused rather than half-decoded.
    const input = () => sharp(image, { limitInputPixels: this.maxPixels, failOn: "error", animated: false });
    let metadata: Metadata;
    try {
      // Only the header is read here, so the pixel limit is checked below with a clearer answer (413).
      metadata = await sharp(image, { limitInputPixels: false }).metadata();
    } catch {
      throw new UnsupportedImageError("it is not an image in a format the server reads");
    }
    if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) {
      throw new UnsupportedImageError(`${metadata.format ?? "unknown"} images are not accepted`);
    }
    const width = metadata.width ?? 0;
    const height = metadata.height ?? 0;
    if (width * height > this.maxPixels) {
      throw new PhotoTooLargeError(`${width}×${height} pixels is more than ${this.maxPixels} pixels`);
    }
    if (metadata.isProgressive && width * height > this.maxWholeDecodePixels) {
      throw new PhotoTooLargeError(
        `a progressive or interlaced image of ${width}×${height} pixels is decoded whole, and more than ${this.maxWholeDecodePixels} pixels are not; save it as a baseline (standard) JPEG`,
      );
    }
    // Decoded once, shrunk to the smallest size both renditions can be cut from: the display
    // size, unless the thumbnail's square crop needs more of the short side (a panorama).
    const scale = Math.min(
      1,
      Math.max(this.displaySize / Math.max(width, height, 1), this.thumbSize / Math.max(Math.min(width, height), 1)),
    );
    const side = Math.max(1, Math.round(Math.max(width, height) * scale));
    try {
      const { data, info } = await input()
        .rotate()
        .resize(side, side, { fit: "inside", withoutEnlargement: true })
        .flatten({ background: "#ffffff" })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
      const [display, thumb] = await Promise.all([
        pixels()
          .resize(this.displaySize, this.displaySize, { fit: "inside", withoutEnlargement: true })
          .jpeg({ quality: 82, mozjpeg: true })
          .toBuffer(),
        pixels()
          .resize(this.thumbSize, this.thumbSize, { fit: "cover" })
          .jpeg({ quality: 78, mozjpeg: true })
          .toBuffer(),
      ]);
      return { contentType: "image/jpeg", display, thumb };
    } catch {
      const what =
        metadata.format === "heif" && metadata.compression === "hevc"
          ? "HEIC (HEVC) photos cannot be decoded by this server's image library; set the camera to “Most Compatible” (JPEG)"
          : "the image data is damaged or incomplete";
      throw new UnsupportedImageError(what);
    }
  }
}
