# selftest/ct/<cand>/<key> (cmake -P): the ct record of a fixture must carry
# the declared verdict and a detail matching the declared regular expression
# (override "expect": {"ct": VERDICT, "ct.detail": REGEX}).
# -D inputs: RECORD VERDICT DETAIL NAME
if(NOT EXISTS "${RECORD}")
  message(FATAL_ERROR "ngcc: selftest ct ${NAME}: ${RECORD} is missing (did ct/${NAME} run?)")
endif()
file(READ "${RECORD}" rec)
string(JSON verdict ERROR_VARIABLE e1 GET "${rec}" verdict)
string(JSON detail ERROR_VARIABLE e2 GET "${rec}" detail)
if(e1 OR e2)
  message(FATAL_ERROR "ngcc: selftest ct ${NAME}: ${RECORD} has no verdict/detail: ${e1}${e2}")
endif()
if(NOT verdict STREQUAL VERDICT)
  message(FATAL_ERROR "ngcc: selftest ct ${NAME}: expected verdict ${VERDICT}, got ${verdict}: ${detail}")
endif()
if(NOT detail MATCHES "${DETAIL}")
  message(FATAL_ERROR "ngcc: selftest ct ${NAME}: the detail does not match /${DETAIL}/: ${detail}")
endif()
message("ngcc: selftest ct ${NAME}: ${verdict} as expected; detail matches /${DETAIL}/")
