# Prints one line per test case of an xUnit file: "<framework> <suite>.<test> <outcome>" (passed, failed or
# skipped), without timings, so two runs can be compared. Set framework=XCTest or framework=Testing.
# XCTest suite names lose their module prefix, to match the "Test Case 'Suite.test'" lines of a serial run.
function emit() {
    if (name != "") print framework " " suite "." name " " outcome
    name = ""
}
/<testcase / {
    emit()
    match($0, /classname="[^"]*"/); suite = substr($0, RSTART + 11, RLENGTH - 12)
    match($0, / name="[^"]*"/); name = substr($0, RSTART + 7, RLENGTH - 8)
    if (framework == "XCTest") sub(/^[^.]*\./, "", suite)
    outcome = "passed"
    if ($0 ~ /\/>[[:space:]]*$/) emit()
}
/<failure/ { outcome = "failed" }
/<skipped/ { outcome = "skipped" }
/<\/testcase>/ { emit() }
END { emit() }
