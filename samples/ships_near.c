/* ships_near.c: the extern predicate of samples/ships.srem (docs/language.md 3.4).
 *
 *   sremc build samples/ships.srem samples/ships_near.c -o ships
 *
 * near(lat1, lon1, lat2, lon2): the two positions (degrees) are at most
 * 1 km apart, by the haversine great-circle distance on a sphere of the
 * Earth's mean radius. */
#include <math.h>
#include <stdbool.h>

#define NEAR_KM 1.0
#define EARTH_RADIUS_KM 6371.0088
#define DEG_TO_RAD (3.14159265358979323846 / 180.0)

bool near(double lat1, double lon1, double lat2, double lon2)
{
    double dlat = (lat2 - lat1) * DEG_TO_RAD;
    double dlon = (lon2 - lon1) * DEG_TO_RAD;
    double s = sin(dlat / 2), t = sin(dlon / 2);
    double a = s * s + cos(lat1 * DEG_TO_RAD) * cos(lat2 * DEG_TO_RAD) * t * t;
    double km = 2 * EARTH_RADIUS_KM * asin(sqrt(a < 1 ? a : 1));
    return km <= NEAR_KM;   /* false for NaN positions */
}
