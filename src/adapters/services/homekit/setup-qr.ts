/**
 * The HomeKit setup QR code: the `X-HM://` setup URI (HAP specification, "Setup Payload")
 * drawn as an SVG, for the web UI to show next to the setup code.
 */
import QRCode from "qrcode";

/** An SVG data URI of the QR code for `setupUri` (black modules on white, with the quiet zone). */
export function setupQrDataUri(setupUri: string): string {
  const { modules } = QRCode.create(setupUri, { errorCorrectionLevel: "Q" });
  const quiet = 4;
  const size = modules.size + quiet * 2;
  let path = "";
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) {
      if (modules.get(y, x)) path += `M${x + quiet} ${y + quiet}h1v1h-1z`;
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
