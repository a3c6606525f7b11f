import { Transform, type TransformCallback } from "node:stream";

/** What the guard tells about a packet it dropped. */
export interface DroppedPacket {
  /** The MQTT control packet type (3 for PUBLISH). */
  type: number;
  /** The packet's whole size in bytes, fixed header included. */
  bytes: number;
  /** A PUBLISH's topic, when the packet is one. */
  topic?: string;
}

const PUBLISH = 3;

/**
 * Drops every MQTT packet larger than `maxBytes` from the bytes a broker sends, before the
 * packet parser sees them. mqtt-packet keeps a packet's bytes until the whole packet has
 * arrived, and a broker passes messages of up to 256 MB on (Mosquitto's default), so without
 * this one publish to any topic Hearth subscribes to could take more memory than a small board
 * has. The guard holds at most a fixed header and a topic (64 KB) of a packet it drops.
 *
 * Dropping is safe for the protocol because Hearth subscribes with QoS 0: a broker sends it
 * only QoS 0 publishes, which nobody acknowledges. The other packets a broker sends are small.
 */
export class PacketSizeGuard extends Transform {
  private header: number[] = [];
  /** Bytes of the current packet still to pass on, or to drop. */
  private remaining = 0;
  private dropping: DroppedPacket | null = null;
  /** A dropped PUBLISH's first bytes, until its topic is read. */
  private topicBytes: number[] | null = null;
  /** Bytes that are not MQTT: passed on for the parser to refuse, as it would without the guard. */
  private passAll = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onDrop: (packet: DroppedPacket) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.passAll) {
      done(null, chunk);
      return;
    }
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - at);
        if (this.dropping) this.readTopic(chunk, at, take);
        else this.push(chunk.subarray(at, at + take));
        this.remaining -= take;
        at += take;
        if (this.remaining === 0) this.endPacket();
        continue;
      }
      const byte = chunk[at] as number;
      at += 1;
      this.header.push(byte);
      // The first byte is the packet type; then one to four bytes of remaining length.
      if (this.header.length === 1) continue;
      if (byte & 0x80) {
        if (this.header.length < 5) continue;
        // A fifth length byte is not MQTT: let the parser see it all and close the connection.
        this.passAll = true;
        this.push(Buffer.concat([Buffer.from(this.header), chunk.subarray(at)]));
        this.header = [];
        done();
        return;
      }
      this.startPacket();
    }
    done();
  }

  private startPacket(): void {
    let length = 0;
    for (let index = this.header.length - 1; index >= 1; index -= 1) {
      length = length * 128 + ((this.header[index] as number) & 0x7f);
    }
    const size = this.header.length + length;
    const type = (this.header[0] as number) >> 4;
    if (size > this.maxBytes) {
      this.dropping = { type, bytes: size };
      this.topicBytes = type === PUBLISH ? [] : null;
    } else {
      this.push(Buffer.from(this.header));
    }
    this.header = [];
    this.remaining = length;
    if (length === 0) this.endPacket();
  }

  /** Collects the two length bytes and the topic of a dropped PUBLISH, no more. */
  private readTopic(chunk: Buffer, at: number, take: number): void {
    const collected = this.topicBytes;
    if (!collected) return;
    for (let index = at; index < at + take; index += 1) {
      const wanted = collected.length < 2 ? 2 : 2 + (collected[0] as number) * 256 + (collected[1] as number);
      if (collected.length >= wanted) return;
      collected.push(chunk[index] as number);
    }
  }

  private endPacket(): void {
    const dropped = this.dropping;
    if (!dropped) return;
    const topic = this.topicBytes;
    if (topic && topic.length >= 2) dropped.topic = Buffer.from(topic.slice(2)).toString("utf8");
    this.dropping = null;
    this.topicBytes = null;
    this.onDrop(dropped);
  }
}
