import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "./i18n/index.js";

/** What both the browser's BarcodeDetector and the WebAssembly reader offer. */
export interface Detector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string; format: string }[]>;
}

/** Product codes: what is printed on packages in shops (QR codes are not products). */
const FORMATS = ["ean_13", "ean_8", "upc_a", "upc_e", "code_128", "code_39", "itf"] as const;

interface NativeDetectorClass {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
}

/**
 * The browser's own BarcodeDetector where it reads product codes (Chrome on Android and macOS,
 * Safari 17+), else the WebAssembly reader, loaded now and not before.
 */
async function createDetector(): Promise<Detector> {
  const native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (native) {
    const supported = await native.getSupportedFormats().catch(() => [] as string[]);
    const formats = FORMATS.filter((format) => supported.includes(format)) as string[];
    if (formats.includes("ean_13")) return new native({ formats });
  }
  const polyfill = await import("./barcode-polyfill.js");
  return polyfill.createDetector([...FORMATS]);
}

/** Why the camera could not be used, as the sentence to show. */
function cameraProblem(error: unknown): Parameters<typeof t>[0] {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") return "barcode.denied";
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "NotReadableError")
    return name === "NotReadableError" ? "barcode.cameraFailed" : "barcode.noCamera";
  return "barcode.cameraFailed";
}

/** How often a frame is read: often enough to feel instant, seldom enough for an old phone. */
const DETECT_INTERVAL_MS = 150;

/**
 * The camera view while scanning: the rear camera's picture, read until a code is found, then
 * the camera is turned off. Everything stays on the device; only the code goes to the caller.
 */
export function BarcodeScanner(props: { onCode: (code: string) => void; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<Parameters<typeof t>[0] | null>(null);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
    (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setProblem("barcode.noCamera");
        return;
      }
      let detector: Detector;
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        });
      } catch (error) {
        if (!stopped) setProblem(cameraProblem(error));
        return;
      }
      if (stopped) {
        stop();
        return;
      }
      try {
        detector = await createDetector();
      } catch {
        stop();
        setProblem("barcode.decoderFailed");
        return;
      }
      const element = video.current;
      if (stopped || !element) return stop();
      element.srcObject = stream;
      await element.play().catch(() => undefined);
      setRunning(true);
      const read = async () => {
        if (stopped) return;
        if (element.readyState >= 2) {
          const found = await detector.detect(element).catch(() => []);
          const code = found.find((entry) => entry.rawValue.trim() !== "")?.rawValue.trim();
          if (code && !stopped) {
            stop();
            props.onCode(code);
            return;
          }
        }
        if (!stopped) timer = setTimeout(() => void read(), DETECT_INTERVAL_MS);
      };
      void read();
    })();
    return stop;
  }, []);

  return (
    <div class="scanner">
      {problem ? (
        <p class="error" role="alert">
          {t(problem)}
        </p>
      ) : (
        <p class="muted" role="status">
          {t(running ? "barcode.scanning" : "barcode.starting")}
        </p>
      )}
      {problem ? null : <video ref={video} class="scanner-video" muted playsInline aria-label={t("barcode.video")} />}
      <button type="button" onClick={props.onClose}>
        {t("barcode.stop")}
      </button>
    </div>
  );
}
