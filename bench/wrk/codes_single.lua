-- wrk: POST /codes with one definition (a Digital Link with (01)+(10)+(21)+(17)
-- and a linkType) on keep-alive connections.
-- Env: BENCH_TOKEN (the bearer token), BENCH_BODY_FILE (optional, see bodies.lua).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local bodies = require("bodies")
local report = require("report")

local token = os.getenv("BENCH_TOKEN")
if token == nil or token == "" then error("codes_single.lua: set BENCH_TOKEN to an access token") end

wrk.method = "POST"
wrk.path = "/codes"
wrk.body = bodies.codes_request(1)
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. token
bodies.save_if_asked(wrk.body)

done = report.done
