-- latlong: a WGS84 position as 20 digits, used by releases 2022-08-10 to
-- 2023-03-22 for AI 4309 (later releases split it into "latitude" and
-- "longitude" components, which are built in).
--
--   digits  1-10: latitude  = (degrees + 90)  * 10^7, 0000000000 .. 1800000000
--   digits 11-20: longitude = (degrees + 180) * 10^7 mod 360 * 10^7, 0 .. 3600000000
--
-- The Lua linter contract: the file returns one function that takes the
-- component's characters and returns nil when they pass, or
-- reason, offset, length (a camelCase token; zero-based offset and length of
-- the offending span within the component) when they do not; and, after the
-- function, a table giving each of its reasons the sentence an error message
-- says after "AI <ai>: " ({part} stands for the characters at fault, with
-- their place in the value; the placeholders are those of engine/linter.h).
-- A reason without a sentence gets a generic one.

local function check(component)
  if #component ~= 20 then
    return "latlongInvalidLength", 0, #component
  end
  local bad = component:find("[^0-9]")
  if bad then
    return "nonDigitCharacter", bad - 1, 1
  end
  -- Ten digits fit in a Lua integer (64-bit) exactly.
  if math.tointeger(tonumber(component:sub(1, 10))) > 1800000000 then
    return "invalidLatitude", 0, 10
  end
  if math.tointeger(tonumber(component:sub(11, 20))) > 3600000000 then
    return "invalidLongitude", 10, 10
  end
  return nil
end

local sentences = {
  latlongInvalidLength = "a latitude and longitude must be 20 digits: {part}",
  nonDigitCharacter = "{part} is not a digit; only 0 to 9 are allowed there",
  invalidLatitude = "the latitude {part} is above 1800000000 (90 degrees north)",
  invalidLongitude = "the longitude {part} is above 3600000000 (180 degrees east)",
}

return check, sentences
