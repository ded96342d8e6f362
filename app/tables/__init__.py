"""Tables: create, join by QR code, seats, host rights. service.py is the one place that writes them."""
