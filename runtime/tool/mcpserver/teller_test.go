package mcpserver_test

const tellerPassword = "teller-pass-never-echoed"
