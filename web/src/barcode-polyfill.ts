/**
 * The WebAssembly barcode reader for browsers without a BarcodeDetector (Firefox, Safari before
 * 17, desktop Chromium on Linux and Windows). Loaded only when a scan starts (a dynamic import,
 * its own chunk), so the app's first load does not carry it. The .wasm file is one of the app's
 * own assets: zxing-wasm would fetch it from a CDN otherwise, and nothing may leave the house.
 */
import { BarcodeDetector, type BarcodeFormat, prepareZXingModule } from "barcode-detector/ponyfill";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm";
import type { Detector } from "./barcode-scanner.js";

prepareZXingModule({
  overrides: {
    locateFile: (file: string, prefix: string) => (file.endsWith(".wasm") ? wasmUrl : prefix + file),
  },
});

export function createDetector(formats: BarcodeFormat[]): Detector {
  return new BarcodeDetector({ formats });
}
