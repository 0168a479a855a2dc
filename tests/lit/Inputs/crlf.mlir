func.func @crlf() {
  return
}
