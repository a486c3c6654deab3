-- gcp_allowlist: refuse codes whose GS1 Company Prefix is not one of the
-- organization's own. The template for operators' Lua rule modules.
--
-- A rule module is a file in rules/modules/ that returns a table:
--   describe  one line saying what the module checks (shown in the module list)
--   init(settings)
--             optional; called once per rule snapshot with the module's
--             settings (the "module.<name>.<key> = value" lines of
--             rules/pipeline.properties, as strings). Return true to run, or
--             false, "reason" to switch the module off (the reason is logged
--             and listed); raise an error to refuse the whole rule snapshot
--             (the running rules stay in service).
--   check(item, report)
--             called for every code definition. `item` holds position,
--             reference, primaryKey {key, value}, ais {{key, value}, ...}
--             (values already normalised, e.g. GTINs to 14 digits),
--             extensionParameters, digitalLinkStem, linkType and context.
--             Call report(code, path, args[, message]) once per fault; the code
--             must start with "Validation.Invalid."; message is one sentence
--             for a person (without it the engine writes a generic one from
--             the code and args). A Lua error fails the item closed.
-- It is named in pipeline.steps as "lua:<file name without .lua>".
--
-- The sandbox offers base, string, table, math and utf8 (no io, os, require,
-- load), an instruction budget per call and a memory cap, and gs1.ai(key):
-- the dictionary entry of an AI ({key, title, dataAttribute, primaryKey,
-- components = {{charset, min, max, optional, linters = {...}}}}) or nil.
--
-- Settings:
--   module.gcp_allowlist.prefixes = 9506000, 0614141    (GS1 Company Prefixes)

local prefixes = {}

-- Where the GS1 Company Prefix starts in an AI's value: the dictionary marks
-- the component that carries it with the linter gcppos1 (at its start) or
-- gcppos2 (after one leading digit, e.g. a GTIN's indicator); older releases
-- call them key and keyoff1. Returns nil for AIs without a company prefix.
local function gcpOffset(key)
  local ai = gs1.ai(key)
  if not ai then return nil end
  local offset = 0
  for _, component in ipairs(ai.components) do
    for _, linter in ipairs(component.linters) do
      if linter == "gcppos1" or linter == "key" then return offset end
      if linter == "gcppos2" or linter == "keyoff1" then return offset + 1 end
    end
    if component.min ~= component.max then return nil end
    offset = offset + component.max
  end
  return nil
end

local function allowed(value, offset)
  for _, prefix in ipairs(prefixes) do
    if value:sub(offset + 1, offset + #prefix) == prefix then return true end
  end
  return false
end

return {
  describe = "GS1 Company Prefixes of identifying AIs are on the organization's allow-list",

  init = function(settings)
    prefixes = {}
    for prefix in (settings.prefixes or ""):gmatch("[^,%s]+") do
      if not prefix:match("^%d+$") or #prefix < 4 or #prefix > 12 then
        -- A wrong list must not quietly let every code through: refuse the rules.
        error("prefixes: \"" .. prefix .. "\" is not a GS1 Company Prefix (4 to 12 digits)", 0)
      end
      prefixes[#prefixes + 1] = prefix
    end
    if #prefixes == 0 then
      return false, "no prefixes configured (module.gcp_allowlist.prefixes)"
    end
    return true
  end,

  check = function(item, report)
    local function inspect(ai, path, code)
      local offset = gcpOffset(ai.key)
      if offset and #ai.value > offset and not allowed(ai.value, offset) then
        report(code, path, { ai.key, "gcpNotAllowed" },
          "AI " .. ai.key .. ": the GS1 Company Prefix of " .. ai.value ..
          " is not one of this organization's prefixes.")
      end
    end
    inspect(item.primaryKey, "primaryKey", "Validation.Invalid.primaryKey")
    for index, ai in ipairs(item.ais) do
      local position = tostring(index - 1)
      inspect(ai, "ais." .. position, "Validation.Invalid.ais." .. position)
    end
  end,
}
