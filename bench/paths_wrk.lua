-- wrk script: GET the paths of the PATHS file (one URL path per line, already encoded).
--   PATHS=/tmp/paths.txt wrk -t2 -c2 -d20s --latency -s bench/paths_wrk.lua http://127.0.0.1:8913
-- At random (each thread its own seed), or with SEQUENTIAL=1 each path once in file order
-- (thread i of WRK_THREADS takes lines i, i + WRK_THREADS, ...): a thread stops after its
-- last path (one connection per thread: no request is sent past it), so the latencies are
-- of first requests only; the run ends early when every thread is done.
local paths = {}
for line in io.lines(os.getenv("PATHS") or "/tmp/paths.txt") do
  paths[#paths + 1] = line
end
local sequential = os.getenv("SEQUENTIAL") == "1"
local stride = tonumber(os.getenv("WRK_THREADS") or "2")
local made = 0

function setup(thread)
  made = made + 1
  thread:set("thread_id", made)
end

local next_index = 0
local share = 0
local answered = 0

function init(args)
  math.randomseed(os.time() * 1000 + 7919 * (thread_id or 0))
  next_index = (thread_id or 1) - 1
  share = math.floor((#paths - next_index + stride - 1) / stride)
end

request = function()
  if sequential then
    local path = paths[(next_index % #paths) + 1]
    next_index = next_index + stride
    return wrk.format("GET", path)
  end
  return wrk.format("GET", paths[math.random(#paths)])
end

if sequential then
  response = function(status, headers, body)
    answered = answered + 1
    if answered >= share then
      wrk.thread:stop()
    end
  end
end
