// Thai, Lao, Khmer and Myanmar write words without spaces: lines break at the word
// boundaries ICU's dictionaries find (Inline/DictionaryBreaks.swift), never inside a
// cluster, and never where a plain UAX #14 breaker would have to (between any two letters,
// or only at the rare spaces). The browser comparison is LineBreakOracleTests.
// Sample text: Article 1 of the Universal Declaration of Human Rights in each language.

import Foundation
import QuireIngest
import Testing

@testable import QuireTypeset

@Suite struct DictionaryBreakTests {
  static let samples: [(tag: String, text: String, words: [String])] = [
    (
      "th",
      "มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ ต่างมีเหตุผลและมโนธรรม และควรปฏิบัติต่อกันด้วยเจตนารมณ์แห่งภราดรภาพ",
      ["มนุษย์", "อิสระ", "เกียรติ", "ปฏิบัติ", "ภราดรภาพ"]
    ),
    (
      "lo", "ມະນຸດທຸກຄົນເກີດມາມີກຽດສັກສີແລະສິດເທົ່າທຽມກັນ ທຸກຄົນມີເຫດຜົນແລະຄວາມຄິດຄວາມເຫັນສ່ວນຕົວຂອງໃຜຂອງມັນ",
      ["ມະນຸດ", "ເຫດຜົນ"]
    ),
    (
      "km",
      "មនុស្សទាំងអស់ កើតមកមានសេរីភាព និងសមភាព ក្នុងផ្នែកសេចក្ដីថ្លៃថ្នូរ និងសិទ្ធិ។ មនុស្សគ្រប់រូបសុទ្ធតែមានវិចារណញ្ញាណ និងសតិសម្បជញ្ញៈ ហើយត្រូវប្រព្រឹត្តចំពោះគ្នាទៅវិញទៅមក ក្នុងស្មារតីភាតរភាពជាបងប្អូន។",
      ["មនុស្ស", "សេរីភាព", "វិចារណញ្ញាណ"]
    ),
    (
      "my",
      "လူတိုင်းသည်တူညီလွတ်လပ်သောဂုဏ်သိက္ခာဖြင့်လည်းကောင်း၊ တူညီလွတ်လပ်သောအခွင့်အရေးများဖြင့်လည်းကောင်း၊ မွေးဖွားလာသူများဖြစ်သည်။",
      ["ဂုဏ်သိက္ခာ", "အခွင့်အရေး"]
    ),
  ]

  /// The lines of `text` set 12 em wide (text lines only, spaces dropped) and their dump.
  static func lines(_ text: String, language: String) throws -> (lines: [String], dump: String) {
    var b = DocumentBuilder()
    b.paragraph(text, b.style { $0.textIndent = .zero })
    b.endChapter()
    var o = LayoutOptions()
    o.margins = .init(top: 20, right: 20, bottom: 20, left: 20)
    o.width = 40 + 16 * 12
    o.height = 1200
    let book = try Typesetter(document: b.document(language: language), options: o).layoutBook(
      threads: 1)
    let lines = book.pages.flatMap(\.lines).filter { $0.role == .text }
    for l in lines { #expect(l.rect.maxX <= Double(o.width) - 20 + 0.01, "\(l.text) overfull") }
    return (lines.map { $0.text.filter { $0 != " " } }, dump(book.pages))
  }

  @Test(arguments: samples.map(\.tag))
  func breaksFallBetweenWords(tag: String) throws {
    let sample = Self.samples.first { $0.tag == tag }!
    let (lines, _) = try Self.lines(sample.text, language: tag)
    let spaces = sample.text.filter { $0 == " " }.count
    #expect(lines.count >= 3)
    // Text kept whole and in order.
    #expect(lines.joined() == sample.text.filter { $0 != " " })
    // More lines end inside space-less runs than a space-only breaker could give.
    let insideRuns = zip(lines, lines.dropFirst()).filter { a, b in
      let joined = a + b
      return !sample.text.contains(a.suffix(1) + " " + b.prefix(1)) && joined.count > 0
    }
    #expect(insideRuns.count >= 1 || lines.count > spaces + 1)
    // Whole words: a dictionary word never straddles a line end.
    let joined = lines.joined(separator: "|")
    for w in sample.words { #expect(joined.contains(w), "\(w) split: \(joined)") }
    for l in lines {
      let first = l.unicodeScalars.first!
      // No line starts with a mark (a vowel sign, a tone mark, a virama/coeng).
      #expect(![.nonspacingMark, .spacingMark].contains(first.properties.generalCategory), "\(l)")
      // No Thai or Lao line ends with a leading vowel (it is written before its consonant).
      let last = l.unicodeScalars.last!.value
      #expect(!(0x0E40...0x0E44).contains(last) && !(0x0EC0...0x0EC4).contains(last), "\(l)")
    }
  }

  @Test func lineDump() throws {
    var out = ""
    for s in Self.samples { out += "# \(s.tag)\n" + (try Self.lines(s.text, language: s.tag).dump) }
    #expect(matchesGolden("dictionary-breaks.txt", out))
  }
}
