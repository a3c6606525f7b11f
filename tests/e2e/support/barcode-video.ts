/**
 * A video file with a real EAN-13 barcode in it, for Chromium's fake camera
 * (`--use-file-for-fake-video-capture`). The bars follow the EAN-13 symbology (ISO/IEC 15420,
 * GS1 General Specifications 5.2): start guard 101, six left digits in L or G code by the parity
 * pattern of the first digit, centre guard 01010, six right digits in R code, end guard 101.
 * The frame is written as Y4M (YUV 4:2:0), which Chromium reads and loops.
 */
import { writeFile } from "node:fs/promises";

const L_CODES = [
  "0001101",
  "0011001",
  "0010011",
  "0111101",
  "0100011",
  "0110001",
  "0101111",
  "0111011",
  "0110111",
  "0001011",
];
const R_CODES = L_CODES.map((code) => [...code].map((bit) => (bit === "0" ? "1" : "0")).join(""));
const G_CODES = R_CODES.map((code) => [...code].reverse().join(""));
const PARITY = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"];

/** The 95 modules (1 = bar) of an EAN-13 of 13 digits. */
export function ean13Modules(code: string): string {
  if (!/^\d{13}$/.test(code)) throw new Error(`not 13 digits: ${code}`);
  const digits = [...code].map(Number);
  const parity = PARITY[digits[0]!]!;
  const left = digits
    .slice(1, 7)
    .map((digit, index) => (parity[index] === "L" ? L_CODES : G_CODES)[digit])
    .join("");
  const right = digits
    .slice(7)
    .map((digit) => R_CODES[digit])
    .join("");
  return `101${left}01010${right}101`;
}

/** Writes a one-frame Y4M video of `code` as black bars on white, and returns its path. */
export async function writeBarcodeVideo(file: string, code: string): Promise<string> {
  const width = 640;
  const height = 480;
  const module = 4;
  const modules = ean13Modules(code);
  const left = Math.floor((width - modules.length * module) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 90; y < 390; y++) {
    for (let index = 0; index < modules.length; index++) {
      if (modules[index] !== "1") continue;
      luma.fill(16, y * width + left + index * module, y * width + left + (index + 1) * module);
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`, "ascii");
  const frame = Buffer.concat([Buffer.from("FRAME\n", "ascii"), luma, chroma, chroma]);
  await writeFile(file, Buffer.concat([header, frame, frame]));
  return file;
}

/** Chromium's flags for a fake camera playing `video`, with the permission prompt answered yes. */
export function fakeCamera(video: string): string[] {
  return [
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    `--use-file-for-fake-video-capture=${video}`,
  ];
}
