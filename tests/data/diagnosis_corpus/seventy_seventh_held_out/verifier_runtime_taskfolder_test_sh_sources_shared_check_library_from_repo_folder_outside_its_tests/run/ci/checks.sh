# ci/checks.sh: checks shared by every task's tests/test.sh
expect_file_equals() {  # FILE EXPECTED: the file's text, whitespace removed, equals EXPECTED
  test "$(tr -d "[:space:]" < "$1" 2>/dev/null)" = "$2"
}
