// Reading a compiled pattern file back (the format and its checks: CompiledPatterns.swift),
// and the files in the cache folder.

import CHyphen
import Foundation
import QuireCore

extension CompiledPatterns {
  /// One level's records in the payload, checked.
  struct LevelRecords {
    var lhmin: Int8, rhmin: Int8, clhmin: Int8, crhmin: Int8
    var utf8: Bool
    var cset: [UInt8]
    var nohyphenCount: Int32
    var nohyphen: Int32
    var stateCount: Int
    var transitionCount: Int
    /// Payload offsets of the first state and transition records.
    var states: Int
    var transitions: Int
  }

  /// Little-endian reads from the file's bytes (callers check the bounds first).
  struct Reader {
    let raw: UnsafeRawBufferPointer
    func u32(_ at: Int) -> UInt32 {
      UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
    func i32(_ at: Int) -> Int32 { Int32(bitPattern: u32(at)) }
    func u64(_ at: Int) -> UInt64 {
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
  }

  /// The dictionary in `bytes`, compiled from a pattern file whose SHA-1 is `source`, as one
  /// malloc'd block (release it with `free`); nil unless every check passes.
  static func decode(_ bytes: UnsafeRawBufferPointer, source: [UInt8])
    -> UnsafeMutablePointer<HyphenDict>?
  {
    let r = Reader(raw: bytes)
    guard bytes.count >= headerSize + 8, bytes.count <= maxFileBytes,
      bytes.prefix(8).elementsEqual(magic), r.u32(8) == version,
      r.u64(16) == UInt64(bytes.count - headerSize),
      bytes[24..<44].elementsEqual(source),
      r.u32(12) == crc(UnsafeRawBufferPointer(rebasing: bytes[headerSize...]))
    else { return nil }
    var at = headerSize
    let levelCount = Int(r.u32(at))
    at += 4
    guard levelCount == 1 || levelCount == 2 else { return nil }
    var levels: [LevelRecords] = []
    for _ in 0..<levelCount {
      guard let level = levelRecords(r, at: &at) else { return nil }
      levels.append(level)
    }
    guard bytes.count - at >= 4 else { return nil }
    let poolLength = Int(r.u32(at))
    let pool = at + 4
    guard poolLength == bytes.count - pool, poolLength == 0 || bytes[bytes.count - 1] == 0
    else { return nil }
    let strings = UnsafeRawBufferPointer(rebasing: bytes[pool...])
    for level in levels where !isValid(level, r, strings: strings) { return nil }
    return materialize(levels, r, strings: strings)
  }

  /// The header and the extent of the level at `at`, which moves past its records.
  private static func levelRecords(_ r: Reader, at: inout Int) -> LevelRecords? {
    guard r.raw.count - at >= levelHeaderSize else { return nil }
    let b = r.raw
    let cset = Array(b[(at + 8)..<(at + 28)])
    let stateCount = Int(r.u32(at + 36))
    let transitionCount = Int(r.u32(at + 40))
    guard b[at + 4] <= 1, cset[19] == 0, stateCount >= 1, stateCount <= maxStates,
      transitionCount <= maxStates
    else { return nil }
    let states = at + levelHeaderSize
    let transitions = states + stateCount * stateSize
    let end = transitions + transitionCount * transitionSize
    guard end <= r.raw.count else { return nil }
    let level = LevelRecords(
      lhmin: Int8(bitPattern: b[at]), rhmin: Int8(bitPattern: b[at + 1]),
      clhmin: Int8(bitPattern: b[at + 2]), crhmin: Int8(bitPattern: b[at + 3]),
      utf8: b[at + 4] == 1, cset: cset, nohyphenCount: r.i32(at + 28), nohyphen: r.i32(at + 32),
      stateCount: stateCount, transitionCount: transitionCount, states: states,
      transitions: transitions)
    at = end
    return level
  }

  /// Whether a level describes what a real dictionary builds (see the essay).
  private static func isValid(_ level: LevelRecords, _ r: Reader, strings: UnsafeRawBufferPointer)
    -> Bool
  {
    let n = level.stateCount
    guard let firsts = transitionStarts(level, r), let depth = depths(level, r, firsts: firsts),
      isValidNohyphen(level, strings: strings)
    else { return false }
    for s in 0..<n {
      let record = level.states + s * stateSize
      let match = r.i32(record)
      let repl = r.i32(record + 4)
      let fallback = Int(r.i32(record + 12))
      guard match >= -1, match < strings.count, repl >= -1, repl < strings.count,
        fallback == -1 || (fallback >= 0 && fallback < n && depth[fallback] < depth[s])
      else { return false }
      if match >= 0 {
        let limit = min(Int(depth[s]) + 2, strings.count - Int(match))
        let length = strnlen(
          strings.baseAddress!.assumingMemoryBound(to: CChar.self) + Int(match), limit)
        guard length <= Int(depth[s]) + 1 else { return false }
      }
    }
    return true
  }

  /// Each state's first transition index; nil unless the counts add up.
  private static func transitionStarts(_ level: LevelRecords, _ r: Reader) -> [Int32]? {
    var firsts = [Int32](repeating: 0, count: level.stateCount + 1)
    var total = 0
    for s in 0..<level.stateCount {
      let count = Int(r.u32(level.states + s * stateSize + 16))
      guard count <= 256 else { return nil }
      total += count
      firsts[s + 1] = Int32(total)
    }
    return total == level.transitionCount ? firsts : nil
  }

  /// Each state's depth in the transition tree from the root; nil unless every state is
  /// reached exactly once.
  private static func depths(_ level: LevelRecords, _ r: Reader, firsts: [Int32]) -> [Int32]? {
    var depth = [Int32](repeating: -1, count: level.stateCount)
    depth[0] = 0
    var queue: [Int32] = [0]
    queue.reserveCapacity(level.stateCount)
    var head = 0
    while head < queue.count {
      let s = Int(queue[head])
      head += 1
      for t in Int(firsts[s])..<Int(firsts[s + 1]) {
        let target = Int(r.i32(level.transitions + t * transitionSize + 1))
        guard target > 0, target < level.stateCount, depth[target] < 0 else { return nil }
        depth[target] = depth[s] + 1
        queue.append(Int32(target))
      }
    }
    return queue.count == level.stateCount ? depth : nil
  }

  /// nohyphen, when present, holds `nohyphenCount + 1` NUL-terminated parts in the pool.
  private static func isValidNohyphen(_ level: LevelRecords, strings: UnsafeRawBufferPointer)
    -> Bool
  {
    guard level.nohyphen >= 0 else { return level.nohyphen == -1 }
    guard level.nohyphen < strings.count, level.nohyphenCount >= 0 else { return false }
    var parts = 0
    for b in strings[Int(level.nohyphen)...] where b == 0 {
      parts += 1
      if parts > Int(level.nohyphenCount) { return true }
    }
    return false
  }

  /// The levels as libhyphen structures in one malloc'd block: the dictionaries, their
  /// states, their transitions, then the strings.
  private static func materialize(
    _ levels: [LevelRecords], _ r: Reader, strings: UnsafeRawBufferPointer
  ) -> UnsafeMutablePointer<HyphenDict> {
    let dictBytes = MemoryLayout<HyphenDict>.stride * levels.count
    let stateBytes = MemoryLayout<HyphenState>.stride * levels.reduce(0) { $0 + $1.stateCount }
    let transBytes =
      MemoryLayout<HyphenTrans>.stride * levels.reduce(0) { $0 + $1.transitionCount }
    let block = malloc(dictBytes + stateBytes + transBytes + max(1, strings.count))!
    let dicts = block.bindMemory(to: HyphenDict.self, capacity: levels.count)
    var states = (block + dictBytes).bindMemory(
      to: HyphenState.self, capacity: stateBytes / MemoryLayout<HyphenState>.stride)
    var trans = (block + dictBytes + stateBytes).bindMemory(
      to: HyphenTrans.self, capacity: transBytes / MemoryLayout<HyphenTrans>.stride)
    let pool = (block + dictBytes + stateBytes + transBytes).bindMemory(
      to: CChar.self, capacity: max(1, strings.count))
    if strings.count > 0 {
      UnsafeMutableRawPointer(pool).copyMemory(from: strings.baseAddress!, byteCount: strings.count)
    }
    func string(_ offset: Int32) -> UnsafeMutablePointer<CChar>? {
      offset < 0 ? nil : pool + Int(offset)
    }
    for (k, level) in levels.enumerated() {
      var d = HyphenDict()
      d.lhmin = CChar(level.lhmin)
      d.rhmin = CChar(level.rhmin)
      d.clhmin = CChar(level.clhmin)
      d.crhmin = CChar(level.crhmin)
      d.nohyphen = string(level.nohyphen)
      d.nohyphenl = level.nohyphenCount
      d.num_states = Int32(level.stateCount)
      withUnsafeMutableBytes(of: &d.cset) { raw in
        for i in 0..<min(raw.count, level.cset.count) { raw[i] = level.cset[i] }
      }
      d.utf8 = level.utf8 ? 1 : 0
      d.states = states
      d.nextlevel = k + 1 < levels.count ? dicts + k + 1 : nil
      (dicts + k).initialize(to: d)
      var first = 0
      for s in 0..<level.stateCount {
        let record = level.states + s * stateSize
        let count = Int(r.u32(record + 16))
        for t in 0..<count {
          let at = level.transitions + (first + t) * transitionSize
          (trans + t).initialize(
            to: HyphenTrans(ch: CChar(bitPattern: r.raw[at]), new_state: r.i32(at + 1)))
        }
        (states + s).initialize(
          to: HyphenState(
            match: string(r.i32(record)), repl: string(r.i32(record + 4)),
            replindex: Int8(bitPattern: r.raw[record + 8]),
            replcut: Int8(bitPattern: r.raw[record + 9]), fallback_state: r.i32(record + 12),
            num_trans: Int32(count), trans: count > 0 ? trans : nil))
        trans += count
        first += count
      }
      states += level.stateCount
    }
    return dicts
  }
}

extension CompiledPatterns {
  /// The compiled dictionary of the pattern file whose SHA-1 is `source`, read from
  /// `folder`; nil when there is none or it does not check out. A hit becomes the most
  /// recently used file for the cache's eviction.
  static func load(folder: String, source: [UInt8]) -> UnsafeMutablePointer<HyphenDict>? {
    let path = folder + "/" + fileName(source: source)
    guard let bytes = readFile(path, limit: maxFileBytes) else { return nil }
    let dict = bytes.withUnsafeBytes { decode($0, source: source) }
    if dict != nil { _ = utimensat(AT_FDCWD, path, nil, 0) }
    return dict
  }

  /// Writes the compiled form of `dict`, built from a pattern file whose SHA-1 is `source`,
  /// into `folder` (created if needed) atomically; false when it cannot (the next process
  /// only builds the trie again).
  @discardableResult
  static func store(
    _ dict: UnsafeMutablePointer<HyphenDict>, folder: String, source: [UInt8]
  ) -> Bool {
    guard let bytes = encode(dict, source: source), bytes.count <= maxFileBytes else {
      return false
    }
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
      try AtomicFile.write(bytes, to: folder + "/" + fileName(source: source))
    } catch {
      return false
    }
    return true
  }

  /// A regular file's bytes (read in one call, not mapped: a mapped file truncated under us
  /// would be a SIGBUS), nil when it is missing, not a regular file or over `limit`.
  static func readFile(_ path: String, limit: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= limit
    else { return nil }
    let size = Int(info.st_size)
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      count = 0
      while count < size {
        let n = read(fd, buffer.baseAddress! + count, size - count)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { failed = true }
        if n <= 0 { break }
        count += n
      }
    }
    return failed ? nil : bytes
  }
}
