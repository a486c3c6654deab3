-- wrk: POST /oauth/token (client_credentials, HTTP Basic client
-- authentication) on keep-alive connections, cycling through many clients so
-- that no client reaches the per-client issuance cap during a run.
-- Env: BENCH_CLIENTS_FILE: one complete Authorization value ("Basic ...") a line.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local report = require("report")

local clients_file = os.getenv("BENCH_CLIENTS_FILE")
if clients_file == nil or clients_file == "" then error("token.lua: set BENCH_CLIENTS_FILE") end

local requests = {}
local next_request = 1

function init(_)
  for authorization in io.lines(clients_file) do
    if authorization ~= "" then
      requests[#requests + 1] = wrk.format("POST", "/oauth/token", {
        ["Authorization"] = authorization,
        ["Content-Type"] = "application/x-www-form-urlencoded",
      }, "grant_type=client_credentials")
    end
  end
  if #requests == 0 then error("token.lua: " .. clients_file .. " names no client") end
end

function request()
  local formatted = requests[next_request]
  next_request = next_request % #requests + 1
  return formatted
end

done = report.done
