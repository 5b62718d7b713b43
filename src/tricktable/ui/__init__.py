"""What people see: the terminal table, the human player and the readable account of a match."""
