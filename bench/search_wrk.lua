-- wrk script for the players page: GET /players/?q=<a random line of the queries file>.
--   .venv/bin/python bench/bench_search.py --write-queries /tmp/queries.txt
--   QUERIES=/tmp/queries.txt wrk -t2 -c8 -d30s --latency -s bench/search_wrk.lua http://127.0.0.1:8765
local queries = {}
for line in io.lines(os.getenv("QUERIES") or "/tmp/queries.txt") do
  queries[#queries + 1] = line:gsub("([^%w%-%.])", function(c)
    return string.format("%%%02X", string.byte(c))
  end)
end
math.randomseed(1)

request = function()
  return wrk.format("GET", "/players/?q=" .. queries[math.random(#queries)])
end
