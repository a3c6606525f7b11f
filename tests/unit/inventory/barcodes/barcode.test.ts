import { expect } from "chai";
import { parseBarcode } from "../../../../src/domain/inventory/barcode.js";

describe("parseBarcode", () => {
  it("accepts GTINs whose check digit matches", () => {
    // EAN-13, EAN-8, GTIN-14 and UPC-E examples from the GS1 check digit rule.
    for (const code of ["4006381333931", "5901234123457", "96385074", "10012345678902", "01234565", "04252614"]) {
      expect(parseBarcode(code), code).to.deep.equal({ code });
    }
  });

  it("keeps a UPC-A as its EAN-13 and drops the spaces and hyphens of a typed code", () => {
    expect(parseBarcode("036000291452")).to.deep.equal({ code: "0036000291452" });
    expect(parseBarcode(" 4 006381-333931 ")).to.deep.equal({ code: "4006381333931" });
  });

  it("refuses a GTIN with a wrong check digit", () => {
    for (const code of ["4006381333932", "96385075", "036000291453", "10012345678903"]) {
      expect(parseBarcode(code), code)
        .to.have.property("problem")
        .that.matches(/check digit/);
    }
  });

  it("accepts other codes of URL-safe characters and refuses the rest", () => {
    expect(parseBarcode("SHOP-17.b_2~")).to.deep.equal({ code: "SHOP-17.b_2~" });
    expect(parseBarcode("123456")).to.deep.equal({ code: "123456" });
    for (const code of ["", "   ", "..", "a b", "a/b", "a%2F", "ä1", "x".repeat(65), "1\u00002"]) {
      expect(parseBarcode(code), JSON.stringify(code)).to.have.property("problem");
    }
  });
});
