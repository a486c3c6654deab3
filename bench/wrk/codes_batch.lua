-- wrk: POST /codes with a batch of BENCH_BATCH_ITEMS definitions (default
-- 1000), built once per wrk thread in init, on keep-alive connections.
-- Env: BENCH_TOKEN (the bearer token), BENCH_BATCH_ITEMS, BENCH_BODY_FILE
-- (optional, see bodies.lua).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local bodies = require("bodies")
local report = require("report")

local token = os.getenv("BENCH_TOKEN")
if token == nil or token == "" then error("codes_batch.lua: set BENCH_TOKEN to an access token") end
local items = tonumber(os.getenv("BENCH_BATCH_ITEMS") or "1000")
if items == nil or items < 1 or items % 1 ~= 0 then error("codes_batch.lua: BENCH_BATCH_ITEMS must be a whole number >= 1") end

wrk.method = "POST"
wrk.path = "/codes"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. token

function init(_)
  wrk.body = bodies.codes_request(items)
  bodies.save_if_asked(wrk.body)
end

done = report.done
