/**
 * Reads at most `maxBytes` of a response's body as UTF-8 text; undefined when it is longer
 * (the rest is not read: the stream is cancelled). Memory stays bounded by the limit, not by
 * what the other side sends: a URL that streams without end (a camera's MJPEG feed) ends here.
 */
export async function readBounded(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes || !response.body) {
    await response.body?.cancel();
    return declared > maxBytes ? undefined : "";
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
