-- wrk script: POST /send with one recipient, a different French mobile each request, so
-- anti-flood and duplicate filtering do not turn the load into no-ops. With TOKENS naming a
-- file of tokens (one per line), each request comes from the next of those accounts;
-- without it, from the token of wrk's -H "Authorization: …".
local tokens = {}
if os.getenv("TOKENS") then
  for line in io.lines(os.getenv("TOKENS")) do tokens[#tokens + 1] = line end
end
local counter = 0

request = function()
  counter = counter + 1
  local number = string.format("3361%07d", (counter * 7919 + math.random(0, 999)) % 10000000)
  local body = '{"sms":{"message":{"text":"Load test","pushtype":"alert"},"recipients":{"gsm":[{"value":"'
    .. number .. '"}]}}}'
  local headers = nil
  if #tokens > 0 then
    headers = { ["Authorization"] = "Bearer " .. tokens[counter % #tokens + 1],
                ["Content-Type"] = "application/json", ["Accept"] = "application/json" }
  end
  return wrk.format("POST", "/send", headers, body)
end
