-- wrk script: GET a random line of the PATHS file (one URL path per line, already encoded).
--   PATHS=/tmp/paths.txt wrk -t2 -c2 -d20s --latency -s bench/paths_wrk.lua http://127.0.0.1:8913
local paths = {}
for line in io.lines(os.getenv("PATHS") or "/tmp/paths.txt") do
  paths[#paths + 1] = line
end
math.randomseed(os.time())

request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
