-- wrk script: POST /send with one recipient, a different French mobile each request, so
-- anti-flood and duplicate filtering do not turn the load into no-ops. With TOKENS naming a
-- file of tokens (one per line), each request comes from the next of those accounts;
-- without it, from the token of wrk's -H "Authorization: …". With KEYED=1, each request
-- carries an Idempotency-Key of its own (what a careful client sends); with KEYED=0, a header
-- of the same size that texto ignores.
local keyed = os.getenv("KEYED") == "1"
local tokens = {}
if os.getenv("TOKENS") then
  for line in io.lines(os.getenv("TOKENS")) do tokens[#tokens + 1] = line end
end
local counter = 0

-- Each thread (and each run) starts at its own place in the walk below: unseeded, every wrk
-- thread drew the same numbers, so a bench sent each number once per thread and per run, and
-- its later runs met anti-flood.
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end

function init(args)
  math.randomseed(os.time() * 1000 + (thread_id or 0))
  counter = math.random(0, 9999999)
end

request = function()
  counter = counter + 1
  -- 7919 is prime to 10^7: consecutive counters give distinct numbers, scattered.
  local number = string.format("3361%07d", (counter * 7919) % 10000000)
  local body = '{"sms":{"message":{"text":"Load test","pushtype":"alert"},"recipients":{"gsm":[{"value":"'
    .. number .. '"}]}}}'
  local headers = nil
  if #tokens > 0 then
    headers = { ["Authorization"] = "Bearer " .. tokens[counter % #tokens + 1],
                ["Content-Type"] = "application/json", ["Accept"] = "application/json" }
  end
  if os.getenv("KEYED") then
    -- A headers table replaces wrk's own (-H) rather than adding to them: copy those first.
    -- Both runs of scripts/load/idempotency build the same table, with a header of the same
    -- size, so that they differ only in what texto does with the key (wrk's Lua shares the
    -- two cores with texto: building the table alone cost it about 5% of its sends).
    if headers == nil then
      headers = {}
      for name, value in pairs(wrk.headers) do headers[name] = value end
    end
    local name = keyed and "Idempotency-Key" or "X-Load-Request"
    headers[name] = string.format("load-%d-%d-%d", thread_id or 0, os.time(), counter)
  end
  return wrk.format("POST", "/send", headers, body)
end
