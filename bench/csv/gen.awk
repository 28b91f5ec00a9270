# gen.awk: -> a CSV stream of SHAPE (sensor or wide) with N lines after the
# header; seeded, so every run reads the same bytes.
# awk -v shape=sensor -v n=2000000 -f bench/csv/gen.awk > sensor.csv
BEGIN {
    srand(18);
    t = 1700000000000;
    if (shape == "wide") {
        split("Site A, north|Site B, south|Depot 7", site, "|");
        split("calm, steady|fan on, door open|\"\"check\"\" later", note, "|");
        print "type,id,site,value,temp,hum,ok,units,label,note,level,time";
        for (i = 0; i < n; i++) {
            t += 1 + int(rand() * 999);
            s = site[1 + int(rand() * 3)];
            nt = note[rand() < 0.0625 ? 3 : 1 + int(rand() * 2)];   # 1/16 with a "" quote
            printf "%s,%d,\"%s\",%.2f,%.1f,%.3f,%s,%d,\"unit %d, rack %d\",\"%s\",%d,%.0f\n",
                substr("THP", 1 + int(rand() * 3), 1), int(rand() * 100000), s,
                rand() * 100, 15 + rand() * 20, rand(), rand() < 0.5 ? "true" : "false",
                int(rand() * 1000), int(rand() * 50), int(rand() * 40), nt,
                int(rand() * 9), t;
        }
    } else {
        print "type,id,value,time";
        for (i = 0; i < n; i++) {
            t += 1 + int(rand() * 999);
            printf "%s,%d,%.1f,%.0f\n", rand() < 0.5 ? "T" : "H", int(rand() * 1000),
                rand() * 100, t;
        }
    }
}
