import { expect } from "chai";
import type { NetworkInterfaceInfo } from "node:os";
import { HomeKitBindError, listenAddresses } from "../../../src/adapters/services/homekit/homekit-listen.js";

const interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = {
  lo: [
    {
      address: "127.0.0.1",
      netmask: "255.0.0.0",
      family: "IPv4",
      mac: "00:00:00:00:00:00",
      internal: true,
      cidr: null,
    },
    {
      address: "::1",
      netmask: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      family: "IPv6",
      mac: "00:00:00:00:00:00",
      internal: true,
      cidr: null,
      scopeid: 0,
    },
  ],
  eth0: [
    {
      address: "192.0.2.2",
      netmask: "255.255.255.0",
      family: "IPv4",
      mac: "02:00:00:00:00:01",
      internal: false,
      cidr: null,
    },
    {
      address: "fe80::1",
      netmask: "ffff:ffff:ffff:ffff::",
      family: "IPv6",
      mac: "02:00:00:00:00:01",
      internal: false,
      cidr: null,
      scopeid: 4,
    },
  ],
};

describe("HomeKit bridge listen addresses (HOMEKIT_BIND)", () => {
  it("listens everywhere without bind, or when bind holds an unspecified address", () => {
    expect(listenAddresses(undefined, interfaces)).to.equal(null);
    expect(listenAddresses([], interfaces)).to.equal(null);
    expect(listenAddresses(["::", "eth0"], interfaces)).to.equal(null);
    expect(listenAddresses("0.0.0.0", interfaces)).to.equal(null);
  });

  it("takes addresses as they are and interface names as their addresses, link-local ones with their zone", () => {
    expect(listenAddresses("127.0.0.1", interfaces)).to.deep.equal(["127.0.0.1"]);
    expect(listenAddresses(["eth0", "127.0.0.1", "192.0.2.2"], interfaces)).to.deep.equal([
      "192.0.2.2",
      "fe80::1%eth0",
      "127.0.0.1",
    ]);
  });

  it("refuses an interface this machine does not have, naming it", () => {
    expect(() => listenAddresses(["wlan9"], interfaces))
      .to.throw(HomeKitBindError)
      .with.property("message")
      .that.contains('"wlan9"');
  });
});
