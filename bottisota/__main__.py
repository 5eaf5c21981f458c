from bottisota.cli import main

raise SystemExit(main())
