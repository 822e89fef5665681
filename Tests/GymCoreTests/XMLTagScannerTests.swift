import Foundation
import Testing

@testable import GymCore

@Suite struct XMLTagScannerTests {
  func tags(_ xml: String) throws -> [XMLTagScanner.Tag] {
    let path = try Fixtures.temporaryDirectory() + "/doc.xml"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
    var scanner = XMLTagScanner(input: InputBuffer(descriptor: open(path, O_RDONLY)))
    var result: [XMLTagScanner.Tag] = []
    while let tag = try scanner.next() { result.append(tag) }
    return result
  }

  func error(_ xml: String) -> InputError? {
    do {
      _ = try tags(xml)
      return nil
    } catch let error as InputError {
      return error
    } catch {
      return InputError(line: -1, message: "\(error)")
    }
  }

  /// Input that is no XML ends with one line: a NUL (which XML forbids anywhere: `/dev/zero`), text
  /// outside the document's element (`yes |`), and text inside it past 16 MiB without a tag. A
  /// byte-order mark may open the file.
  @Test func textThatIsNoXMLEnds() throws {
    #expect(
      error("<A>\u{0}</A>")
        == InputError(line: 1, message: "malformed XML: a NUL byte, which XML does not allow; give the export's XML"))
    #expect(
      error("y\ny\n")
        == InputError(
          line: 1,
          message: "malformed XML: text outside the document's element; give the export's XML (export.xml, or the .zip)"
        ))
    #expect(try tags("\u{FEFF}<?xml version=\"1.0\"?>\n<A/>\n").map(\.name) == ["A"])
    // Endless text inside an element: 1 MiB chunks of "y", never a tag.
    let chunk = [UInt8](repeating: UInt8(ascii: "y"), count: 1 << 20)
    var sent = 0
    let endless = InputBuffer { buffer throws(InputError) in
      if sent == 0 {
        let open = Array("<HealthData>".utf8)
        buffer.copyBytes(from: open)
        sent += open.count
        return open.count
      }
      let count = min(buffer.count, chunk.count)
      buffer.copyBytes(from: chunk[0..<count])
      sent += count
      return count
    }
    var scanner = XMLTagScanner(input: endless)
    #expect(try scanner.next()?.name == "HealthData")
    #expect(throws: InputError.self) { while try scanner.next() != nil {} }
    #expect(sent <= (16 << 20) + (4 << 20))  // stopped within a few chunks of the 16 MiB bound
  }

  /// White space between tags counts from each tag: 200,000 empty elements each after 100 spaces
  /// (about 20 MiB of white space in all, over the 16 MiB bound for one run) read whole.
  @Test func whiteSpaceBetweenManyTagsIsNoLongText() throws {
    let record = Array(String(repeating: " ", count: 100).utf8) + Array("<B/>".utf8)
    let count = 200_000
    var produced = 0
    var pending = Array("<A>".utf8)
    let input = InputBuffer { buffer throws(InputError) in
      if pending.isEmpty {
        if produced < count {
          pending = record
          produced += 1
        } else if produced == count {
          pending = Array("</A>".utf8)
          produced += 1
        } else {
          return 0
        }
      }
      let n = min(buffer.count, pending.count)
      buffer.copyBytes(from: pending[0..<n])
      pending.removeFirst(n)
      return n
    }
    var scanner = XMLTagScanner(input: input)
    var tags = 0
    while try scanner.next() != nil { tags += 1 }
    #expect(tags == 1 + count)
  }

  @Test func readsStartTagsWithDepthAttributesAndLines() throws {
    let xml = """
      <?xml version="1.0"?>
      <!-- a comment with <tags> -->
      <Root a="1">
        <Item name='single &apos;quoted&apos;' other="x &amp; y &#233; &#x1F600;"/>
        <Item>text &amp; more<![CDATA[ <not a tag> ]]></Item>
      </Root>
      """
    let found = try tags(xml)
    #expect(found.map(\.name) == ["Root", "Item", "Item"])
    #expect(found.map(\.depth) == [1, 2, 2])
    #expect(found.map(\.line) == [3, 4, 5])
    #expect(found[1].isEmpty && !found[2].isEmpty)
    #expect(found[1].attribute("name") == "single 'quoted'")
    #expect(found[1].attribute("other") == "x & y é 😀")
    #expect(found[1].attribute("missing") == nil)
  }

  @Test func skipsADoctypeWithAnInternalSubset() throws {
    let xml = """
      <!DOCTYPE HealthData [
      <!ELEMENT HealthData (Record)*>
      <!ATTLIST Record type CDATA #REQUIRED note CDATA "a ] and a > inside">
      ]>
      <HealthData><Record type="t"/></HealthData>
      """
    #expect(try tags(xml).map(\.name) == ["HealthData", "Record"])
  }

  /// Entities declared in the DTD are never expanded: the billion laughs cannot grow.
  @Test func refusesDeclaredEntitiesInsteadOfExpandingThem() {
    var xml = "<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
    for i in 1...9 {
      xml += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1 == 0 ? "" : String(i - 1));", count: 10) + "\">\n"
    }
    xml += "]>\n<lolz><Record value=\"&lol9;\"/></lolz>"
    let failure = error(xml)
    #expect(failure?.line == 13)
    #expect(failure?.message.contains("'&lol9;' is not expanded") == true)
    #expect(
      error("<!DOCTYPE x [<!ENTITY ext SYSTEM \"file:///etc/passwd\">]><x a=\"&ext;\"/>")?.message.contains(
        "not expanded") == true)
  }

  /// Each reference becomes its character's UTF-8 (RFC 3629): one byte up to U+007F, two up to
  /// U+07FF, three up to U+FFFF, four beyond; decoded in place of bytes never fewer than it writes.
  @Test func decodesCharacterReferencesToTheirUTF8() throws {
    let cases: [(reference: String, bytes: [UInt8])] = [
      ("&#127;", [0x7F]),
      // U+0080: 110_00010 10_000000
      ("&#128;", [0xC2, 0x80]),
      // U+07FF: 110_11111 10_111111
      ("&#x7FF;", [0xDF, 0xBF]),
      // U+0800: 1110_0000 10_100000 10_000000
      ("&#x800;", [0xE0, 0xA0, 0x80]),
      // U+10000: 11110_000 10_010000 10_000000 10_000000
      ("&#65536;", [0xF0, 0x90, 0x80, 0x80]),
      // U+10FFFF: 11110_100 10_001111 10_111111 10_111111
      ("&#x10FFFF;", [0xF4, 0x8F, 0xBF, 0xBF]),
      ("&lt;&gt;&amp;&quot;&apos;", Array("<>&\"'".utf8)),
    ]
    for (reference, bytes) in cases {
      let tag = try #require(try tags("<a v=\"x\(reference)y\"/>").first)
      #expect(tag.withAttribute("v") { Array($0) } == [0x78] + bytes + [0x79], "\(reference)")
    }
    // A surrogate and a code point past U+10FFFF are no characters; nor, to XML 1.0 (its `Char`
    // production), NUL, the other C0 controls but tab, line feed and carriage return, U+FFFE and U+FFFF.
    for reference in ["&#xD800;", "&#x110000;", "&#x;", "&#0;", "&#x0;", "&#1;", "&#x1F;", "&#xFFFE;", "&#xFFFF;"] {
      #expect(
        error("<a v=\"\(reference)\"/>")?.message.contains("'\(reference)' is not a character XML allows") == true,
        "\(reference)")
    }
    #expect(error("<a v=\"&;\"/>")?.message.contains("'&;' is not expanded") == true)
    // The edges that are characters: tab, line feed, carriage return, space, U+D7FF, U+E000, U+FFFD.
    let allowed: [(String, [UInt8])] = [
      ("&#9;", [0x09]), ("&#xA;", [0x0A]), ("&#13;", [0x0D]), ("&#x20;", [0x20]),
      ("&#xD7FF;", [0xED, 0x9F, 0xBF]), ("&#xE000;", [0xEE, 0x80, 0x80]), ("&#xFFFD;", [0xEF, 0xBF, 0xBD]),
    ]
    for (reference, bytes) in allowed {
      let tag = try #require(try tags("<a v=\"\(reference)\"/>").first)
      #expect(tag.withAttribute("v") { Array($0) } == bytes, "\(reference)")
    }
  }

  /// Elements nested past `maximumDepth` are refused at the first too deep, with its line; as deep
  /// as the bound is read.
  @Test func nestingPastTheBoundIsRefused() throws {
    let bound = XMLTagScanner.maximumDepth
    let deepest = String(repeating: "<a>", count: bound) + String(repeating: "</a>", count: bound)
    #expect(try tags(deepest).count == bound)
    let tooDeep = String(repeating: "<a>\n", count: bound + 1) + String(repeating: "</a>", count: bound + 1)
    let refused = try #require(error(tooDeep))
    #expect(refused.message.contains("nested more than \(bound) deep"), "\(refused.message)")
    #expect(refused.line == bound + 1)  // the (bound + 1)th <a>, one per line
  }

  /// A value whose quote never closes is an error at the first '<' after it, however much follows;
  /// markup that never ends is refused once it passes 16 MiB instead of being read whole.
  @Test func unendingMarkupIsRefusedWithoutReadingTheRest() {
    let tags = String(repeating: "<c v=\"y\"/>\n", count: 2_000_000)  // 22 MB, past one read
    let open = error("<a>\n<b v='x/>\n" + tags + "</a>")
    #expect(
      open?.line == 3 && open?.message.contains("'<' inside an attribute value") == true, "\(String(describing: open))")
    let comment = error("<a>\n<!-- " + String(repeating: "x", count: 17 << 20))
    #expect(comment?.line == 2, "\(String(describing: comment))")
    #expect(comment?.message.contains("markup longer than 16 MiB") == true, "\(String(describing: comment))")
  }

  @Test func reportsMalformedAndTruncatedDocumentsWithTheLine() {
    #expect(error("<a>\n<b x=1/></a>")?.line == 2)
    #expect(error("<a>\n<b x=\"1\"></c></a>")?.message.contains("</c> closes <b>") == true)
    #expect(error("<a>\n<b x=\"1\"/>\n")?.message.contains("<a> is not closed") == true)
    #expect(error("<a>\n<b x=\"1")?.message.contains("cut off") == true)
    #expect(error("<a x=\"&\"/>")?.message.contains("'&' without a reference") == true)
  }

  @Test func readsTagsThatStraddleChunks() throws {
    let long = String(repeating: "v", count: 3 << 20)
    let found = try tags("<r><i a=\"\(long)\"/><i a=\"short\"/></r>")
    #expect(found.count == 3)
    #expect(found[1].attribute("a")?.count == long.count)
  }
}
