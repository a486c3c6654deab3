-- Request bodies of the HTTP benchmarks. A CodesRequest of `items` valid
-- definitions alternating between (a) a Digital Link (01)+(10)+(21)+(17) with a
-- linkType and (b) the same AIs as an element string, each with its own serial
-- (21), the same definitions as the engine benchmark's cases (a) and (b).
local bodies = {}

local digital_link = '{"primaryKey":{"key":"01","value":"09506000134352"},'
  .. '"ais":[{"key":"10","value":"ABC123"},{"key":"21","value":"SER%08d"},{"key":"17","value":"261231"}],'
  .. '"extensionParameters":[],"digitalLinkStem":"https://id.example.com","linkType":"gs1:pip"}'

local element_string = '{"primaryKey":{"key":"01","value":"09506000134352"},'
  .. '"ais":[{"key":"10","value":"ABC123"},{"key":"21","value":"SER%08d"},{"key":"17","value":"261231"}],'
  .. '"extensionParameters":[]}'

function bodies.codes_request(items)
  local definitions = {}
  for i = 0, items - 1 do
    local shape = (i % 2 == 0) and digital_link or element_string
    definitions[#definitions + 1] = string.format(shape, i)
  end
  return '{"codes":[' .. table.concat(definitions, ",") .. ']}'
end

-- Writes `body` to the file named by BENCH_BODY_FILE when that is set, so that
-- bench/run.sh can check the server's answer to it and size the ceiling's.
function bodies.save_if_asked(body)
  local path = os.getenv("BENCH_BODY_FILE")
  if path == nil or path == "" then return end
  local file = assert(io.open(path, "wb"))
  file:write(body)
  file:close()
end

return bodies
