import { expect } from "chai";
import { isPrivateAddress, pushEndpointProblem } from "../../../../src/adapters/security/push-endpoint-policy.js";

describe("push endpoint policy (SSRF)", () => {
  it("accepts the push services' https endpoints", () => {
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
      "https://web.push.apple.com/QGa",
      "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
    ])
      expect(pushEndpointProblem(endpoint, false), endpoint).to.equal(null);
  });

  it("refuses anything but https, and local or private targets unless allowed", () => {
    for (const endpoint of [
      "http://fcm.googleapis.com/fcm/send/x",
      "ftp://push.example.com/x",
      "not a url",
      "https://user:pw@push.example.com/x",
    ])
      expect(pushEndpointProblem(endpoint, true), endpoint).to.be.a("string");
    for (const endpoint of [
      "https://127.0.0.1/x",
      "https://localhost:8443/x",
      "https://192.168.1.1/admin",
      "https://10.0.0.5/x",
      "https://[::1]/x",
      "https://[fd00::1]/x",
      "https://[::ffff:192.168.0.1]/x",
      "https://169.254.169.254/latest/meta-data",
      "https://router.lan/x",
      "https://nas.local/x",
      "https://printer/x",
    ]) {
      expect(pushEndpointProblem(endpoint, false), endpoint).to.be.a("string");
      expect(pushEndpointProblem(endpoint, true), endpoint).to.equal(null);
    }
  });

  it("knows the private ranges", () => {
    expect(isPrivateAddress("172.16.3.4")).to.equal(true);
    expect(isPrivateAddress("100.64.0.1")).to.equal(true);
    expect(isPrivateAddress("8.8.8.8")).to.equal(false);
    expect(isPrivateAddress("2001:4860:4860::8888")).to.equal(false);
    expect(isPrivateAddress("fe80::1")).to.equal(true);
  });
});
