-- wrk script: POST /send with one recipient, a different French mobile each request, so
-- anti-flood and duplicate filtering do not turn the load into no-ops.
local counter = 0

request = function()
  counter = counter + 1
  local number = string.format("3361%07d", (counter * 7919 + math.random(0, 999)) % 10000000)
  local body = '{"sms":{"message":{"text":"Load test","pushtype":"alert"},"recipients":{"gsm":[{"value":"'
    .. number .. '"}]}}}'
  return wrk.format("POST", "/send", nil, body)
end
