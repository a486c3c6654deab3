-- wrk: GET /healthz on keep-alive connections (no authentication, no work: the
-- transport alone).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local report = require("report")

wrk.method = "GET"
wrk.path = "/healthz"

done = report.done
