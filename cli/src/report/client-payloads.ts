/**
 * The part of the report's script that reads payloads: `inflate` (base64 gzip to JSON, with the
 * browser's own `DecompressionStream`) and `payloadReader`, which inflates a block of events'
 * payloads when one of them is opened and puts back the long texts they share from the string
 * table (see `PayloadPacker`). Inlined into `REPORT_SCRIPT`.
 */
export const PAYLOAD_READER_SCRIPT = String.raw`
  var MARK = "\u0000";
  function inflate(base64) {
    var binary = atob(base64.trim());
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }
  function payloadReader(packed, eventsPerBlock, stringsPerBlock) {
    var blocks = {};
    var stringBlocks = {};
    function block(i) { return blocks[i] || (blocks[i] = inflate(packed.blocks[i])); }
    function stringBlock(i) { return stringBlocks[i] || (stringBlocks[i] = inflate(packed.strings[i])); }
    function refsOf(value, out) {
      if (typeof value === "string") { if (value[0] === MARK && value[1] !== MARK) out.push(Number(value.slice(1))); }
      else if (value && typeof value === "object") Object.keys(value).forEach(function (k) { refsOf(value[k], out); });
      return out;
    }
    function revive(value, strings) {
      if (typeof value === "string") return value[0] !== MARK ? value : value[1] === MARK ? value.slice(1) : strings[Number(value.slice(1))];
      if (Array.isArray(value)) return value.map(function (v) { return revive(v, strings); });
      if (value && typeof value === "object") return Object.fromEntries(Object.keys(value).map(function (k) { return [k, revive(value[k], strings)]; }));
      return value;
    }
    function payloadAt(pos) {
      return block(Math.floor(pos / eventsPerBlock)).then(function (values) {
        var value = values[pos % eventsPerBlock];
        var ids = refsOf(value, []);
        var needed = {};
        ids.forEach(function (id) { needed[Math.floor(id / stringsPerBlock)] = true; });
        return Promise.all(Object.keys(needed).map(function (b) {
          return stringBlock(Number(b)).then(function (list) { return [Number(b), list]; });
        })).then(function (loaded) {
          var strings = {};
          loaded.forEach(function (pair) { pair[1].forEach(function (s, k) { strings[pair[0] * stringsPerBlock + k] = s; }); });
          return revive(value, strings);
        });
      });
    }
    return payloadAt;
  }
`;
