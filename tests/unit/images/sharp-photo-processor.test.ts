import { expect } from "chai";
import sharp from "sharp";
import { SharpPhotoProcessor } from "../../../src/adapters/images/sharp-photo-processor.js";
import { PhotoTooLargeError, UnsupportedImageError } from "../../../src/domain/inventory/item-photo.js";
import { claimedHugePng, EXIF_MARKER, hasGpsDirectory, phonePhoto, plainImage } from "../../support/test-photos.js";

describe("SharpPhotoProcessor", () => {
  const processor = new SharpPhotoProcessor();

  it("turns a phone photo upright and strips every bit of metadata, GPS included, from both sizes", async () => {
    const input = await phonePhoto(64, 32);
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.orientation).to.equal(6);
    expect(hasGpsDirectory(inputMeta.exif)).to.equal(true);
    expect(input.includes(EXIF_MARKER)).to.equal(true);

    const images = await processor.process(input);
    expect(images.contentType).to.equal("image/jpeg");
    for (const output of [images.display, images.thumb]) {
      const meta = await sharp(output).metadata();
      expect(meta.format).to.equal("jpeg");
      expect(meta.exif, "no EXIF at all").to.equal(undefined);
      expect(meta.xmp).to.equal(undefined);
      expect(meta.iptc).to.equal(undefined);
      expect(meta.orientation).to.equal(undefined);
      expect(Buffer.from(output).includes(EXIF_MARKER)).to.equal(false);
    }
    const display = await sharp(images.display).metadata();
    // 64×32 stored sideways (orientation 6) is a 32×64 portrait photo.
    expect([display.width, display.height]).to.deep.equal([32, 64]);
    const thumb = await sharp(images.thumb).metadata();
    expect([thumb.width, thumb.height]).to.deep.equal([256, 256]);
  });

  it("shrinks large photos to the display size, keeping the aspect ratio", async () => {
    const big = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: "#123" } })
      .jpeg()
      .toBuffer();
    const display = await sharp((await processor.process(big)).display).metadata();
    expect([display.width, display.height]).to.deep.equal([1280, 640]);
  });

  it("makes both sizes of a panorama from one decode shrunk only as far as the thumbnail's square allows", async () => {
    const panorama = await sharp({ create: { width: 6000, height: 600, channels: 3, background: "#345" } })
      .jpeg()
      .toBuffer();
    const images = await processor.process(panorama);
    const display = await sharp(images.display).metadata();
    expect([display.width, display.height]).to.deep.equal([1280, 128]);
    const thumb = await sharp(images.thumb).metadata();
    expect([thumb.width, thumb.height]).to.deep.equal([256, 256]);
  });

  it("refuses a progressive JPEG or interlaced PNG past the whole-decode limit, and takes the baseline one", async () => {
    const small = new SharpPhotoProcessor({ maxWholeDecodePixels: 100 * 100 });
    const image = () => sharp({ create: { width: 200, height: 200, channels: 3, background: "#abc" } });
    for (const progressive of [
      await image().jpeg({ progressive: true }).toBuffer(),
      await image().png({ progressive: true }).toBuffer(),
    ]) {
      const error = await small.process(progressive).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(PhotoTooLargeError);
      expect((error as Error).message).to.match(/progressive or interlaced image of 200×200 pixels is decoded whole/);
    }
    const baseline = await small.process(await image().jpeg().toBuffer());
    expect((await sharp(baseline.display).metadata()).width).to.equal(200);
    const progressive = await processor.process(await image().jpeg({ progressive: true }).toBuffer());
    expect((await sharp(progressive.display).metadata()).width, "under the default limit").to.equal(200);
  });

  for (const format of ["png", "webp"] as const) {
    it(`reads ${format}`, async () => {
      const images = await processor.process(await plainImage(format));
      expect((await sharp(images.display).metadata()).format).to.equal("jpeg");
    });
  }

  it("reads AVIF (the HEIF the bundled libvips decodes)", async () => {
    const avif = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#f80" } })
      .avif()
      .toBuffer();
    expect((await sharp((await processor.process(avif)).thumb).metadata()).format).to.equal("jpeg");
  });

  for (const format of ["gif", "tiff"] as const) {
    it(`refuses ${format}, which decodes but is not accepted`, async () => {
      const error = await processor.process(await plainImage(format)).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(UnsupportedImageError);
    });
  }

  it("refuses SVG (no rendering of documents that could reach out)", async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    expect(await processor.process(svg).catch((e: unknown) => e)).to.be.instanceOf(UnsupportedImageError);
  });

  it("refuses bytes that are no image, and a truncated JPEG", async () => {
    expect(await processor.process(Buffer.from("not an image at all")).catch((e: unknown) => e)).to.be.instanceOf(
      UnsupportedImageError,
    );
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
    expect(await processor.process(truncated).catch((e: unknown) => e)).to.be.instanceOf(UnsupportedImageError);
    expect(await processor.process(new Uint8Array()).catch((e: unknown) => e)).to.be.instanceOf(UnsupportedImageError);
  });

  it("refuses a decompression bomb by its pixel count, before decoding it", async () => {
    const bomb = await claimedHugePng(100_000, 100_000);
    expect(bomb.length).to.be.below(200);
    const error = await processor.process(bomb).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(PhotoTooLargeError);
  });
});
