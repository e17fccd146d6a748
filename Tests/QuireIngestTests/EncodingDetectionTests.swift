import Foundation
import QuireCore
import Testing

@testable import QuireIngest

/// A paragraph of a few hundred bytes per legacy encoding, in the language it was made for.
/// The bytes are made at test time by encoding the Swift string with iconv, so the fixture
/// is the text itself.
struct LegacySample: Sendable, CustomStringConvertible {
  var encoding: String
  /// iconv names that decode the bytes back exactly (the detector's answer or its superset).
  var accepted: [String]
  var text: String
  var description: String { encoding }

  func bytes() throws -> Data {
    let converter = try #require(IconvConverter(from: "UTF-8", to: encoding))
    let (bytes, failed) = converter.convertBytes(Data(text.utf8), replacement: [0x3F])
    #expect(failed == 0, "\(encoding) cannot encode the sample")
    return Data(bytes)
  }

  static let all: [LegacySample] = [
    LegacySample(
      encoding: "WINDOWS-1252", accepted: ["WINDOWS-1252"],
      text: """
        „Wir fahren morgen nach München“, sagte Großmutter und legte die Zeitung beiseite. \
        Die Fahrkarten hatten 42 € gekostet, und der Zug würde pünktlich um acht Uhr abfahren. \
        Über die Straße hörte man die Glocken der Frauenkirche; es roch nach frischem Brot, \
        nach Äpfeln und nach dem ersten Schnee des Jahres. „Vergiss die Handschuhe nicht“, \
        rief sie noch – aber Peter war schon draußen.
        """),
    LegacySample(
      encoding: "ISO-8859-1", accepted: ["WINDOWS-1252", "ISO-8859-1"],
      text: """
        Il était une fois, dans une petite ville de Provence, un boulanger nommé François qui \
        se levait chaque matin à quatre heures. « Le pain ne se fait pas tout seul », \
        répétait-il à son apprentie, une jeune fille très sérieuse. Les habitués arrivaient \
        dès l'aube : le maçon, le facteur, la vieille dame du château. Ils échangeaient des \
        nouvelles, goûtaient une brioche encore tiède et repartaient, le sourire aux lèvres, \
        prêts pour une longue journée.
        """),
    LegacySample(
      encoding: "SHIFT_JIS", accepted: ["CP932", "SHIFT_JIS"],
      text: """
        吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした\
        所でニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た。\
        しかもあとで聞くとそれは書生という人間中で一番獰悪な種族であったそうだ。この書生というのは\
        時々我々を捕えて煮て食うという話である。
        """),
    LegacySample(
      encoding: "EUC-JP", accepted: ["EUC-JP"],
      text: """
        親譲りの無鉄砲で小供の時から損ばかりしている。小学校に居る時分学校の二階から飛び降りて\
        一週間ほど腰を抜かした事がある。なぜそんな無闇をしたと聞く人があるかも知れぬ。別段深い\
        理由でもない。新築の二階から首を出していたら、同級生の一人が冗談に、いくら威張っても、\
        そこから飛び降りる事は出来まい。弱虫やーい。と囃したからである。
        """),
    LegacySample(
      encoding: "EUC-KR", accepted: ["UHC", "EUC-KR"],
      text: """
        서울의 가을은 짧지만 아름답다. 아침에는 공기가 차갑고 하늘은 맑으며, 오후가 되면 햇빛이 \
        따뜻하게 거리를 비춘다. 사람들은 공원에 모여 단풍을 구경하고, 시장에서는 밤과 고구마를 \
        굽는 냄새가 난다. 나는 주말마다 오래된 책방에 들러 낡은 소설책을 한 권씩 산다. 주인 \
        할아버지는 언제나 웃으며 차 한 잔을 내어 주신다.
        """),
    LegacySample(
      encoding: "BIG5", accepted: ["BIG5", "BIG5-HKSCS"],
      text: """
        臺北的春天常常下雨，街道上的行人撐著各種顏色的雨傘，匆匆走過騎樓。茶館裡的老人們一邊\
        喝著烏龍茶，一邊談論著報紙上的新聞。孩子們放學以後，喜歡在巷口的小店買一碗熱騰騰的豆花。\
        到了晚上，夜市的燈火亮起來，空氣中瀰漫著炸雞排和臭豆腐的香味。
        """),
    LegacySample(
      encoding: "KOI8-R", accepted: ["KOI8-R"],
      text: """
        Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива \
        по-своему. Всё смешалось в доме Облонских. Жена узнала, что муж был в связи с бывшею \
        в их доме француженкою-гувернанткой, и объявила мужу, что не может жить с ним в \
        одном доме.
        """),
    LegacySample(
      encoding: "GB18030", accepted: ["GB18030"],
      text: """
        北京的冬天很冷，但是阳光常常很好。早上，老人们在公园里打太极拳，年轻人骑着自行车去上班。\
        胡同里飘着烤红薯和糖葫芦的香味。到了晚上，一家人围坐在桌子旁边，吃着热气腾腾的饺子，\
        聊着一天里发生的事情。窗外的雪静静地落下来，整个城市都安静了。
        """),
  ]
}

@Suite struct EncodingDetectionTests {
  @Test(arguments: LegacySample.all)
  func legacyParagraphDecodesExactly(_ sample: LegacySample) throws {
    let data = try sample.bytes()
    #expect((200...600).contains(data.count), "\(data.count) bytes")
    #expect(String(validatingUTF8Data: data) == nil)
    let decoded = try TextDecoding.decode(data, forced: nil, file: "sample.txt")
    #expect(decoded.text == sample.text)
    #expect(decoded.replacements == 0)
    #expect(sample.accepted.contains(decoded.encoding), "read as \(decoded.encoding)")

    // The same through the plain-text book, as two paragraphs with CRLF line ends.
    var book = data
    book.append(contentsOf: [0x0D, 0x0A, 0x0D, 0x0A])
    book.append(data)
    let doc = try PlainTextBook.document(from: book, path: "s.txt", options: IngestOptions())
    let paragraphs = doc.chapters.flatMap(\.blocks).map { $0.inlines.runText }
    #expect(paragraphs == [sample.text, sample.text])
  }

  /// The bug this replaces: a short windows-1252 text decoded as GB18030 ("M黱chen").
  @Test func shortWesternTextIsWindows1252() throws {
    for text in ["München", "Größe und Maße", "naïve “quotes”", "Café au lait", "Ça va ?"] {
      let data = try LegacySample(encoding: "WINDOWS-1252", accepted: [], text: text).bytes()
      let decoded = try TextDecoding.decode(data, forced: nil, file: "x")
      #expect(decoded.text == text)
      #expect(decoded.encoding == "WINDOWS-1252")
      #expect(decoded.isUncertain, "a few bytes are no evidence")
    }
  }

  /// Short texts whose high bytes come in runs are not Western: GB18030 as before, or a
  /// non-Latin answer of the detector.
  @Test func shortRunsAreNotWestern() throws {
    let gb = try LegacySample(encoding: "GB18030", accepted: [], text: "你好").bytes()
    #expect(try TextDecoding.decode(gb, forced: nil, file: "x").text == "你好")
    let ru = try LegacySample(
      encoding: "KOI8-R", accepted: [], text: "Привет, как дела? Всё хорошо."
    ).bytes()
    #expect(
      try TextDecoding.decode(ru, forced: nil, file: "x").text == "Привет, как дела? Всё хорошо.")
  }

  @Test func uncertainGuessIsADiagnosticConfidentOneIsNot() throws {
    let short = try LegacySample(encoding: "WINDOWS-1252", accepted: [], text: "Grüße").bytes()
    let doc = try PlainTextBook.document(from: short, path: "g.txt", options: IngestOptions())
    #expect(doc.warnings.count == 1)
    #expect(doc.warnings.first?.kind == .guessedEncoding)
    #expect(doc.warnings.first?.message.contains("WINDOWS-1252") == true)

    let long = try LegacySample.all[0].bytes()
    let sure = try PlainTextBook.document(from: long, path: "l.txt", options: IngestOptions())
    #expect(sure.warnings.isEmpty, "\(sure.warnings)")
  }

  @Test func westernShapeOfHighBytes() {
    func western(_ bytes: [UInt8]) -> Bool { EncodingDetection.looksWestern(Data(bytes)) }
    #expect(western(Array("Gr".utf8) + [0xF6, 0xDF] + Array("e".utf8)))  // Größe
    #expect(western([0xC7] + Array("a va".utf8)))  // Ça va
    #expect(!western([0xC4, 0xE3, 0xBA, 0xC3]))  // 你好 in GB18030
    #expect(!western(Array("a ".utf8) + [0xC4, 0xE3] + Array(" b".utf8)))  // one CJK character
    #expect(!western([0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]))  // Привет in KOI8-R
  }

  @Test func forcedEncodingStillWins() throws {
    let data = try LegacySample.all[0].bytes()
    var options = IngestOptions()
    options.encoding = "ISO-8859-1"
    let decoded = try TextDecoding.decode(data, forced: options.encoding, file: "x")
    #expect(decoded.encoding == "ISO-8859-1")
    #expect(decoded.text != LegacySample.all[0].text)  // „ “ € are not Latin-1
  }

  @Test func detectorNamesMapToIconvSupersets() {
    #expect(EncodingDetection.iconvNames(forDetectorName: "ISO-8859-1").first == "WINDOWS-1252")
    #expect(EncodingDetection.iconvNames(forDetectorName: "EUC-KR").first == "UHC")
    #expect(EncodingDetection.iconvNames(forDetectorName: "SHIFT_JIS").first == "CP932")
    #expect(EncodingDetection.iconvNames(forDetectorName: "X-ISO-10646-UCS-4-3412").isEmpty)
    // Every name we map to is one glibc's iconv opens.
    for name in ["ISO-8859-1", "ISO-8859-9", "TIS-620", "EUC-KR", "SHIFT_JIS", "BIG5", "GB2312"] {
      for iconvName in EncodingDetection.iconvNames(forDetectorName: name) {
        #expect(IconvConverter(from: iconvName) != nil, "\(iconvName)")
      }
    }
  }

  /// Shift_JIS as Windows writes it keeps ASCII: `\` and `~` are not ¥ and ‾.
  @Test func shiftJISKeepsBackslashAndTilde() throws {
    let text = LegacySample.all[2].text + " C:\\Users\\neko ~/books"
    let data = try LegacySample(encoding: "CP932", accepted: [], text: text).bytes()
    #expect(try TextDecoding.decode(data, forced: nil, file: "x").text == text)
  }

  /// The detector and the trial decodes see a bounded sample that starts near the first
  /// non-ASCII byte and never splits a line.
  @Test func sampleIsBoundedAndStartsAtTheEvidence() throws {
    let ascii = Data(repeating: UInt8(ascii: "a"), count: 300_000)
    var data = ascii
    data.append(try LegacySample.all[6].bytes())  // KOI8-R
    let line = try LegacySample(encoding: "KOI8-R", accepted: [], text: "строка\n").bytes()
    for _ in 0..<20_000 { data.append(line) }
    let sample = EncodingDetection.sample(data)
    #expect(sample.count <= EncodingDetection.sampleBytes)
    #expect(sample.startIndex >= 300_000 - 1024)
    let decoded = try TextDecoding.decode(data, forced: nil, file: "x")
    #expect(decoded.encoding == "KOI8-R")

    let big = Data(repeating: 0xE9, count: 200_000) + Data("\n".utf8)
    let cut = EncodingDetection.sample(big + big)
    #expect(cut.count <= EncodingDetection.sampleBytes)
  }

  @Test func utf16WithoutBOMByZeroBytes() throws {
    let text = "Grüße aus Köln, schönen Tag noch!"
    let le = try LegacySample(encoding: "UTF-16LE", accepted: [], text: text).bytes()
    let be = try LegacySample(encoding: "UTF-16BE", accepted: [], text: text).bytes()
    #expect(try TextDecoding.decode(le, forced: nil, file: "x").text == text)
    #expect(try TextDecoding.decode(be, forced: nil, file: "x").text == text)
  }
}

extension [Inline] {
  /// The text of the runs, for comparing paragraphs.
  var runText: String {
    map { if case .text(let r) = $0 { r.text } else { "" } }.joined()
  }
}
