"""The PyPI `smsfactor` wrapper (a client texto did not write) against a real texto.

Usage: pypi_smsfactor.py BASE_URL TOKEN. Only the base URL changes, as an integrator would do.
Each call the wrapper can make is made, and what it returns is checked; the script prints one
line per call and exits non-zero at the first surprise.
"""

import sys
from datetime import datetime, timedelta

from smsfactor.smsfactor import SMSFactorAPI, SMSFactorException

base_url, token = sys.argv[1], sys.argv[2]


def client(secret):
    api = SMSFactorAPI(secret)
    api.url = base_url
    return api


def check(what, condition, seen):
    if not condition:
        sys.exit(f"FAILED {what}: {seen!r}")
    print(f"ok {what}")


api = client(token)
check("credits (GET /credits?null, int of the answer)", api.credits == 1000, api.credits)

sms = {"message": {"text": "Bonjour de texto", "pushtype": "alert"}, "recipients": {"gsm": [{"value": "33612345678"}]}}
sent = api.post("/send", {"sms": sms})
check("POST /send", sent and sent["status"] == 1 and sent["sent"] == 1 and sent["ticket"], sent)
simulated = api.post("/send/simulate", {"sms": sms})
check("POST /send/simulate", simulated and simulated["cost"] == 1 and "ticket" not in simulated, simulated)

# The wrapper re-encodes every URL under `links` before it posts.
linked = {"message": {"text": "Voir <-short->", "pushtype": "alert", "links": ["https://example.com/soldes?cat=été&p=1"]},
          "recipients": {"gsm": [{"value": "33612345679"}]}}
check("POST /send with links", (api.post("/send", {"sms": linked}) or {}).get("sent") == 1, linked)

in_a_month = (datetime.now() + timedelta(days=30)).strftime("%Y-%m-%d 10:00:00")
later = {"message": {"text": "Plus tard", "pushtype": "alert", "delay": in_a_month},
         "recipients": {"gsm": [{"value": "33612345670"}]}}
scheduled = api.post("/send", {"sms": later})
cancelled = api.delete(f"/send/{scheduled['ticket']}")
check("DELETE /send/:id", cancelled and cancelled["status"] == 1 and float(cancelled["credits"]) == 998, cancelled)

made = api.post("/list", {"list": {"name": "Python", "contacts": {"gsm": [{"value": "33611111111", "info1": "Ada"}]}}})
check("POST /list", made and made["status"] == 1, made)
lists = api.get("/lists")
check("GET /lists", lists and any(item["name"] == "Python" and item["count"] == 1 for item in lists["lists"]), lists)
to_list = api.post("/send/lists", {"sms": {"message": {"text": "Bonjour [info1]", "pushtype": "alert"}, "lists": [{"value": made["id"]}]}})
check("POST /send/lists", to_list and to_list["sent"] == 1, to_list)
campaigns = api.get("/campaigns")
check("GET /campaigns", campaigns and campaigns["totalRecords"] == 4 and "creation_date" in campaigns["campaigns"][0], campaigns)
check("DELETE /list/:id", (api.delete(f"/list/{made['id']}") or {}).get("status") == 1, made)

blacklisted = api.post("/blacklist", {"blacklist": {"contacts": {"gsm": [{"value": "33699999999"}]}}})
check("POST /blacklist", blacklisted and blacklisted["added_contacts"] == 1, blacklisted)
check("GET /blacklist", (api.get("/blacklist") or {}).get("list", [{}])[0].get("destination") == "33699999999", None)
hook = api.post("/webhook", {"webhook": {"type": "DLR", "url": "http://127.0.0.1:9/dlr"}})
check("POST /webhook", hook and hook["status"] == 1, hook)
check("GET /webhook", len((api.get("/webhook") or {}).get("webhooks", [])) == 1, None)
check("GET /account", (api.get("/account") or {}).get("account", {}).get("company") == "demo", None)

# Errors: with its HTTP status (texto's default) the wrapper prints the HTTP error and returns
# None; with a token made with http_errors 0, the answer is 200 and the wrapper raises its own
# exception with texto's status and message, as against SMSFactor.
check("an error with its HTTP status gives None", api.get("/campaign/999999") is None, None)
made_token = api.post("/token", {"token": {"name": "Python wrapper", "http_errors": "0"}})
sdk = client(made_token["token"])
try:
    sdk.get("/campaign/999999")
    check("SMSFactorException from an http_errors 0 token", False, "no exception")
except SMSFactorException as error:
    check("SMSFactorException from an http_errors 0 token", "Error -5" in str(error), str(error))
print("all calls passed")
