import { expect } from "chai";
import { type DroppedPacket, PacketSizeGuard } from "../../../src/adapters/mqtt/packet-size-guard.js";

/** A packet as MQTT 3.1.1 frames it: type and flags, remaining length (base-128), body. */
function packet(firstByte: number, body: Buffer): Buffer {
  const length: number[] = [];
  let rest = body.length;
  do {
    const digit = rest % 128;
    rest = Math.floor(rest / 128);
    length.push(rest > 0 ? digit | 0x80 : digit);
  } while (rest > 0);
  return Buffer.concat([Buffer.from([firstByte, ...length]), body]);
}

/** A QoS 0 PUBLISH: topic length, topic, payload. */
function publish(topic: string, bytes: number): Buffer {
  const name = Buffer.from(topic);
  const topicLength = Buffer.from([name.length >> 8, name.length & 0xff]);
  return packet(0x30, Buffer.concat([topicLength, name, Buffer.alloc(bytes, 0x61)]));
}

const pingResponse = (): Buffer => packet(0xd0, Buffer.alloc(0));

/** Feeds `bytes` to a guard in the given pieces and returns what it passed on and dropped. */
function guard(bytes: Buffer, maxBytes: number, cuts: number[]): { passed: Buffer; dropped: DroppedPacket[] } {
  const dropped: DroppedPacket[] = [];
  const passed: Buffer[] = [];
  const subject = new PacketSizeGuard(maxBytes, (packet) => dropped.push(packet));
  subject.on("data", (chunk: Buffer) => passed.push(chunk));
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    subject.write(bytes.subarray(from, cut));
    from = cut;
  }
  return { passed: Buffer.concat(passed), dropped };
}

describe("PacketSizeGuard", () => {
  const small = publish("home/kitchen/temperature", 40);
  const large = publish("zigbee2mqtt/bridge/devices", 5000);
  const stream = Buffer.concat([small, large, pingResponse(), small]);

  it("passes packets within the limit on unchanged", () => {
    const { passed, dropped } = guard(stream, 10_000, []);
    expect(passed.equals(stream)).to.equal(true);
    expect(dropped).to.deep.equal([]);
  });

  it("drops a larger packet whole and names its topic and size, however the bytes are split", () => {
    const expected = Buffer.concat([small, pingResponse(), small]);
    // Every place a chunk can end, header and topic bytes included.
    for (let cut = 1; cut < stream.length; cut += cut < small.length + 40 ? 1 : 97) {
      const { passed, dropped } = guard(stream, 1024, [cut]);
      expect(passed.equals(expected), `cut at ${cut}`).to.equal(true);
      expect(dropped, `cut at ${cut}`).to.deep.equal([
        { type: 3, bytes: large.length, topic: "zigbee2mqtt/bridge/devices" },
      ]);
    }
  });

  it("reads the stream byte by byte", () => {
    const cuts = Array.from({ length: stream.length - 1 }, (_, index) => index + 1);
    const { passed, dropped } = guard(stream, 1024, cuts);
    expect(passed.equals(Buffer.concat([small, pingResponse(), small]))).to.equal(true);
    expect(dropped).to.have.length(1);
  });

  it("counts the fixed header in the limit", () => {
    const { dropped } = guard(small, small.length - 1, []);
    expect(dropped).to.deep.equal([{ type: 3, bytes: small.length, topic: "home/kitchen/temperature" }]);
    expect(guard(small, small.length, []).dropped).to.deep.equal([]);
  });

  it("holds none of a packet it drops while the packet's bytes arrive", () => {
    // Four length bytes of 0xff…0x7f: 268 435 455 bytes announced, a few sent.
    const announced = Buffer.from([0x30, 0xff, 0xff, 0xff, 0x7f, 0x00, 0x03, 0x61, 0x2f, 0x62, 1, 2, 3]);
    const { passed, dropped } = guard(announced, 1024, [3]);
    expect(passed.length).to.equal(0);
    expect(dropped).to.deep.equal([]);
  });

  it("passes bytes that are not MQTT on for the parser to refuse", () => {
    const garbage = Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02]);
    const { passed, dropped } = guard(garbage, 1024, [2]);
    expect(passed.equals(garbage)).to.equal(true);
    expect(dropped).to.deep.equal([]);
  });
});
