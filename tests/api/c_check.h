/* The C API tests' checks (C11): CHECK counts a failure and goes on, REQUIRE_OK
 * stops the program on an error status, REQUIRE_ERROR wants an error with a code
 * and a message substring (tests/support's require_error, for C). */
#ifndef GK_TESTS_API_C_CHECK_H_
#define GK_TESTS_API_C_CHECK_H_

#include <gkrun/gkrun.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);   \
      ++failures;                                                                \
    }                                                                            \
  } while (0)

/* A status that must be NULL; prints its message and exits otherwise. */
#define REQUIRE_OK(expr)                                                           \
  do {                                                                             \
    gkrun_status* st_ = (expr);                                                    \
    if (st_) {                                                                     \
      fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, #expr,     \
              gkrun_code_name(gkrun_status_code(st_)), gkrun_status_message(st_)); \
      gkrun_status_free(st_);                                                      \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

/* An error with `code` whose message contains `text`; frees it. */
static void require_error(gkrun_status* st, gkrun_code code, const char* text, int line) {
  if (!st) {
    fprintf(stderr, "line %d: expected %s, got success\n", line, gkrun_code_name(code));
    ++failures;
    return;
  }
  if (gkrun_status_code(st) != code || !strstr(gkrun_status_message(st), text)) {
    fprintf(stderr, "line %d: expected %s containing '%s', got %s: %s\n", line, gkrun_code_name(code), text,
            gkrun_code_name(gkrun_status_code(st)), gkrun_status_message(st));
    ++failures;
  }
  gkrun_status_free(st);
}
#define REQUIRE_ERROR(expr, code, text) require_error((expr), (code), (text), __LINE__)

#endif /* GK_TESTS_API_C_CHECK_H_ */
