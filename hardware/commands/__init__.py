"""The Ethos-U command set as data: every cmd0 and cmd1 command, its opcode, its fields and their
named values (``command_set``), and the packing of commands into 32-bit words (``words``).
Design notes: docs/command_stream.md."""
