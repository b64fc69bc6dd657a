"""Running the app: the server a phone reaches, the command line, backups."""
